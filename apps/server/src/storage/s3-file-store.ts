// The FileStore on any S3-compatible object store (AWS S3, MinIO, Ceph RGW, Garage, R2, ...), through
// the official AWS SDK. Bodies of unknown length stream up as multipart uploads (lib-storage), which
// are aborted on failure, so a broken upload leaves no object behind. The SDK (about 0.15 s of loading)
// is imported at the first call, so a process without S3_BUCKET never loads it.
import type { Readable } from 'node:stream';
import type * as ClientSdk from '@aws-sdk/client-s3';
import type * as StorageSdk from '@aws-sdk/lib-storage';
import { StorageNotFound, checkKey } from './storage.ts';
import type { ByteRange, FileStore, StoredObject } from './storage.ts';

export interface S3StoreConfig {
  bucket: string;
  /** e.g. http://minio:9000; absent for AWS itself */
  endpoint: string | null;
  region: string;
  /** MinIO and most self-hosted stores want path-style URLs (endpoint/bucket/key) */
  forcePathStyle: boolean;
  /** every key is stored under this prefix, e.g. "tazamun/" to share a bucket */
  prefix: string;
  /** explicit credentials; null means the SDK's default chain (AWS_ACCESS_KEY_ID/…, profiles, IAM role) */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
}

interface Sdk {
  s3: typeof ClientSdk;
  Upload: typeof StorageSdk.Upload;
  client: ClientSdk.S3Client;
}

export class S3FileStore implements FileStore {
  private loading: Promise<Sdk> | null = null;
  private loaded: Sdk | null = null;

  constructor(readonly config: S3StoreConfig) {}

  /** The SDK and this store's client, made at the first call. */
  private sdk(): Promise<Sdk> {
    this.loading ??= Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]).then(
      ([s3, storage]) => {
        const client = new s3.S3Client({
          region: this.config.region,
          endpoint: this.config.endpoint ?? undefined,
          forcePathStyle: this.config.forcePathStyle,
          credentials: this.config.credentials ?? undefined,
          // Checksums only where the API requires them: many S3-compatible stores reject the SDK's
          // default streaming CRC trailers.
          requestChecksumCalculation: 'WHEN_REQUIRED',
          responseChecksumValidation: 'WHEN_REQUIRED',
          maxAttempts: 3,
        });
        this.loaded = { s3, Upload: storage.Upload, client };
        return this.loaded;
      },
    );
    return this.loading;
  }

  /** Closes the client's sockets (a store that was never used has none). */
  destroy(): void {
    this.loaded?.client.destroy();
  }

  private k(key: string): string {
    return this.config.prefix + checkKey(key);
  }

  private unprefixed(key: string): string {
    return key.slice(this.config.prefix.length);
  }

  async put(
    key: string,
    body: Readable | Buffer,
    options: { contentType?: string } = {},
  ): Promise<StoredObject> {
    const { Upload, client } = await this.sdk();
    const upload = new Upload({
      client,
      params: {
        Bucket: this.config.bucket,
        Key: this.k(key),
        Body: body,
        ContentType: options.contentType ?? 'application/octet-stream',
      },
      queueSize: 2,
      partSize: 8 * 1024 * 1024,
      leavePartsOnError: false,
    });
    await upload.done();
    const s = await this.stat(key);
    if (!s) throw new Error(`upload of ${key} finished but the object is absent`);
    return s;
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const { s3, client } = await this.sdk();
    try {
      const r = await client.send(
        new s3.GetObjectCommand({
          Bucket: this.config.bucket,
          Key: this.k(key),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      return r.Body as Readable;
    } catch (err) {
      if (err instanceof s3.NoSuchKey || err instanceof s3.NotFound) throw new StorageNotFound(key);
      throw err;
    }
  }

  async stat(key: string): Promise<StoredObject | null> {
    const { s3, client } = await this.sdk();
    try {
      const r = await client.send(new s3.HeadObjectCommand({ Bucket: this.config.bucket, Key: this.k(key) }));
      return { key, size: r.ContentLength ?? 0, modified: r.LastModified ?? new Date(0) };
    } catch (err) {
      const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (err instanceof s3.NotFound || err instanceof s3.NoSuchKey || status === 404) return null;
      throw err;
    }
  }

  async list(prefix: string): Promise<StoredObject[]> {
    checkKey(prefix, { prefix: true });
    const { s3, client } = await this.sdk();
    const out: StoredObject[] = [];
    let token: string | undefined;
    do {
      const r = await client.send(
        new s3.ListObjectsV2Command({
          Bucket: this.config.bucket,
          Prefix: this.config.prefix + prefix,
          ContinuationToken: token,
        }),
      );
      for (const o of r.Contents ?? [])
        if (o.Key)
          out.push({
            key: this.unprefixed(o.Key),
            size: o.Size ?? 0,
            modified: o.LastModified ?? new Date(0),
          });
      token = r.IsTruncated ? r.NextContinuationToken : undefined;
    } while (token);
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async delete(key: string): Promise<void> {
    const { s3, client } = await this.sdk();
    await client.send(new s3.DeleteObjectCommand({ Bucket: this.config.bucket, Key: this.k(key) }));
  }

  async deletePrefix(prefix: string): Promise<void> {
    if (!prefix.endsWith('/') || prefix === '/')
      throw new Error('deletePrefix takes a folder prefix ending in "/"');
    // DeleteObjects takes at most 1000 keys per call.
    const keys = (await this.list(prefix)).map((o) => this.k(o.key));
    const { s3, client } = await this.sdk();
    for (let i = 0; i < keys.length; i += 1000) {
      await client.send(
        new s3.DeleteObjectsCommand({
          Bucket: this.config.bucket,
          Delete: { Objects: keys.slice(i, i + 1000).map((Key) => ({ Key })), Quiet: true },
        }),
      );
    }
  }
}

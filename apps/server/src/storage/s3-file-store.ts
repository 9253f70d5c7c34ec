// The FileStore on any S3-compatible object store (AWS S3, MinIO, Ceph RGW, Garage, R2, ...), through
// the official AWS SDK. Bodies of unknown length stream up as multipart uploads (lib-storage), which
// are aborted on failure, so a broken upload leaves no object behind.
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  NotFound,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
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

export class S3FileStore implements FileStore {
  readonly client: S3Client;

  constructor(readonly config: S3StoreConfig) {
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint ?? undefined,
      forcePathStyle: config.forcePathStyle,
      credentials: config.credentials ?? undefined,
      // Checksums only where the API requires them: many S3-compatible stores reject the SDK's
      // default streaming CRC trailers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
    });
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
    const upload = new Upload({
      client: this.client,
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
    try {
      const r = await this.client.send(
        new GetObjectCommand({
          Bucket: this.config.bucket,
          Key: this.k(key),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      return r.Body as Readable;
    } catch (err) {
      if (err instanceof NoSuchKey || err instanceof NotFound) throw new StorageNotFound(key);
      throw err;
    }
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const r = await this.client.send(
        new HeadObjectCommand({ Bucket: this.config.bucket, Key: this.k(key) }),
      );
      return { key, size: r.ContentLength ?? 0, modified: r.LastModified ?? new Date(0) };
    } catch (err) {
      const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (err instanceof NotFound || err instanceof NoSuchKey || status === 404) return null;
      throw err;
    }
  }

  async list(prefix: string): Promise<StoredObject[]> {
    checkKey(prefix, { prefix: true });
    const out: StoredObject[] = [];
    let token: string | undefined;
    do {
      const r = await this.client.send(
        new ListObjectsV2Command({
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
    await this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: this.k(key) }));
  }

  async deletePrefix(prefix: string): Promise<void> {
    if (!prefix.endsWith('/') || prefix === '/')
      throw new Error('deletePrefix takes a folder prefix ending in "/"');
    // DeleteObjects takes at most 1000 keys per call.
    const keys = (await this.list(prefix)).map((o) => this.k(o.key));
    for (let i = 0; i < keys.length; i += 1000) {
      await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.config.bucket,
          Delete: { Objects: keys.slice(i, i + 1000).map((Key) => ({ Key })), Quiet: true },
        }),
      );
    }
  }
}

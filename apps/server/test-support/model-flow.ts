// The steps of the adapted-model tests against a real app: a project, recordings uploaded to it and
// aligned, an adaptation started and followed to its end.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { AdaptedModel } from '@tazamun/contracts/models';
import { AlignmentResult } from '@tazamun/contracts/alignment-result';
import type { SpeakerRecording } from './adaptation-corpus.ts';
import { upload, waitForStatus } from './jobs-test-app.ts';
import { bearer } from './test-app.ts';
import { until } from './until.ts';

export async function createProject(app: FastifyInstance, access: string, name: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/projects/',
    payload: { name },
    headers: bearer(access),
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().id as string;
}

/** Queues the recording (in English, into the project when given); its alignment's id. */
export async function sendRecording(
  app: FastifyInstance,
  access: string,
  r: Pick<SpeakerRecording, 'speaker' | 'wav' | 'text'>,
  projectId?: string,
  text = r.text,
): Promise<string> {
  const res = await upload(app, access, [
    { name: 'language', value: 'eng' },
    { name: 'text', value: text },
    ...(projectId ? [{ name: 'project_id', value: projectId }] : []),
    { name: 'audio', filename: `${r.speaker}.wav`, content: readFileSync(r.wav), contentType: 'audio/wav' },
  ]);
  assert.equal(res.statusCode, 202, res.body);
  return res.json().id as string;
}

/** Uploads the recording and waits until it is aligned: its id, `adapted_model` and result. */
export async function alignRecording(
  app: FastifyInstance,
  access: string,
  r: Pick<SpeakerRecording, 'speaker' | 'wav' | 'text'>,
  projectId?: string,
) {
  const id = await sendRecording(app, access, r, projectId);
  const done = await waitForStatus(app, access, id);
  assert.equal(done.status, 'completed', JSON.stringify(done));
  const d = (await app.inject({ url: `/api/alignments/${id}/`, headers: bearer(access) })).json() as {
    adapted_model: string | null;
    result: unknown;
  };
  return { id, adaptedModel: d.adapted_model, result: AlignmentResult.parse(d.result) };
}

/** Starts the adaptation of the project's English recordings and waits for its end. */
export async function adaptProject(app: FastifyInstance, access: string, projectId: string) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/projects/${projectId}/models/`,
    payload: { language: 'eng' },
    headers: bearer(access),
  });
  assert.equal(res.statusCode, 202, res.body);
  const id = AdaptedModel.parse(res.json()).id;
  return until('the adaptation to end', async () => {
    const r = await app.inject({ url: `/api/projects/${projectId}/models/${id}/`, headers: bearer(access) });
    assert.equal(r.statusCode, 200, r.body);
    const m = AdaptedModel.parse(r.json());
    return m.status !== 'queued' && m.status !== 'processing' && m;
  });
}

/** Turns the project's `use_adapted_model` on or off. */
export async function useAdaptedModel(app: FastifyInstance, access: string, projectId: string, on: boolean) {
  const res = await app.inject({
    method: 'PATCH',
    url: `/api/projects/${projectId}/`,
    payload: { use_adapted_model: on },
    headers: bearer(access),
  });
  assert.equal(res.statusCode, 200, res.body);
}

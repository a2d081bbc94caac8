// The documents API of a local runtime as e2e tests call it: JSON in and out with an optional key, and a job polled
// (GET /v1/jobs/{id}) until a condition holds, bounded in time.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

export const settled = (j: Json) => j.status === 'done' || j.status === 'failed';

/** `base()`: the documents URL (read per call: the runtime starts in beforeAll). */
export function documentsClient(base: () => string) {
  /** The raw answer (to read its headers or bytes). */
  const send = (method: string, path: string, key?: string, body?: unknown) =>
    fetch(base() + path, {
      method,
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  async function call(method: string, path: string, key?: string, body?: unknown) {
    const res = await send(method, path, key, body);
    const text = await res.text();
    return { res, status: res.status, json: text ? (JSON.parse(text) as Json) : {} };
  }

  /** Polls GET /v1/jobs/{id} until `until(job)` holds; bounded in time. */
  async function waitJob(id: string, key: string, until: (job: Json) => boolean, timeoutMs = 60_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { status, json } = await call('GET', `/v1/jobs/${id}`, key);
      expect(status).toBe(200);
      if (until(json)) return json;
      if (Date.now() > deadline) throw new Error(`job ${id} still ${JSON.stringify(json)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  return { send, call, waitJob };
}

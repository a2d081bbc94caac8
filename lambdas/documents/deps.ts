// What the documents handlers need. Chromium is launched lazily once per warm container and reused.
import { config, required, type Config } from '../shared/config';
import { dynamo, s3Client } from '../shared/aws/clients';
import { S3ResultStore, type ResultStore } from '../shared/aws/result-store';
import { DynamoQuotaStore } from '../shared/aws/quota-store';
import { DynamoKeyStore } from '../shared/aws/key-store';
import { DynamoGrowthStore } from '../shared/aws/growth-store';
import type { KeyStore } from '../shared/auth/keys';
import type { GrowthStore } from '../shared/growth/ports';
import type { QuotaStore } from '../shared/quota/windows';
import type { RenderDeps } from './domain/render-request';

export interface DocumentsDeps {
  readonly config: Config;
  readonly quotas: QuotaStore;
  readonly keys: KeyStore;
  readonly growth: GrowthStore;
  /** Where documents too large for a Lambda response go. */
  readonly results: ResultStore;
  /** Chromium (PDF, PNG) and the template sandbox. */
  renderer(): Promise<RenderDeps>;
  now(): Date;
}

let renderer: Promise<RenderDeps> | undefined;

/** One browser per process, shared by every route that renders. */
export function sharedRenderer(): Promise<RenderDeps> {
  renderer ??= import('./render/chromium').then(({ Renderer }) => {
    const r = new Renderer();
    return { renderPdf: (html, o) => r.renderPdf(html, o), renderPng: (html, o) => r.renderPng(html, o) };
  });
  renderer.catch(() => (renderer = undefined));
  return renderer;
}

export function awsDeps(): DocumentsDeps {
  return {
    get config() {
      return config();
    },
    get quotas() {
      return new DynamoQuotaStore(dynamo(), required('QUOTAS_TABLE'));
    },
    get keys() {
      return new DynamoKeyStore(dynamo(), required('KEYS_TABLE'));
    },
    get growth() {
      return new DynamoGrowthStore(dynamo(), required('GROWTH_TABLE'));
    },
    get results() {
      return new S3ResultStore(s3Client(), required('DOCUMENTS_BUCKET'));
    },
    renderer: sharedRenderer,
    now: () => new Date(),
  };
}

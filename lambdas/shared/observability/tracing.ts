// X-Ray tracing switch and the middy middleware for handlers. This file never imports the Tracer itself: the X-Ray
// SDK (~130 kB minified) is bundled only into functions that use the AWS clients, because only
// observability/aws-clients.ts (imported by lambdas/shared/aws/clients.ts) provides it. A function without AWS calls
// (GET /voices, /pricing, 404) keeps a small bundle and is traced by Lambda's own segment only.
// On: in Lambda (AWS_EXECUTION_ENV), unless POWERTOOLS_TRACE_ENABLED=false. Off in the local runtime and in tests.
import type { MiddlewareObj } from '@middy/core';
import type { Tracer } from '@aws-lambda-powertools/tracer';

export function tracingEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  if ((env.POWERTOOLS_TRACE_ENABLED ?? '').trim().toLowerCase() === 'false') return false;
  if ((env.AWS_SAM_LOCAL ?? '') !== '') return false;
  return (env.AWS_EXECUTION_ENV ?? '').startsWith('AWS_Lambda_');
}

export interface TracingKit {
  tracer: Tracer;
  /** Powertools' captureLambdaHandler for one handler (a `## handler` subsegment, cold-start annotation). */
  handlerMiddleware(): MiddlewareObj;
}

let provider: (() => Promise<TracingKit | undefined>) | undefined;

/** Registers the loader of the Tracer (called once by observability/aws-clients.ts when it is bundled). */
export function provideTracing(load: () => Promise<TracingKit | undefined>): void {
  provider = load;
}

/** middy: wraps the handler in a traced subsegment when tracing is on and the Tracer is part of this bundle. */
export function tracingMiddleware(): MiddlewareObj {
  let delegate: MiddlewareObj | undefined;
  return {
    before: async (request) => {
      if (!provider) return;
      const kit = await provider();
      if (!kit) return;
      delegate ??= kit.handlerMiddleware();
      await delegate.before?.(request);
    },
    after: async (request) => {
      await delegate?.after?.(request);
    },
    onError: async (request) => {
      await delegate?.onError?.(request);
    },
  };
}

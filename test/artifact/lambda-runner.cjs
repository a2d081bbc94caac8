// Runs one Lambda function the way the Node.js managed runtime does: loads the handler module once (the cold
// start; its errors are init errors), then serves invocations sent by the parent over IPC, setting _X_AMZN_TRACE_ID
// per invocation and passing a Lambda context. Plain CommonJS on purpose: it is not part of what is tested.
// argv: <module file> <export name>. The parent sets cwd (LAMBDA_TASK_ROOT) and the whole environment.
'use strict';

const [, , modulePath, exportName = 'handler'] = process.argv;

const errorOf = (err) => ({
  name: err && err.name,
  message: err && err.message,
  stack: err && err.stack,
});

let handler;
try {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require(modulePath);
  handler = mod[exportName];
  if (typeof handler !== 'function')
    throw new Error(`${modulePath} does not export a function ${exportName}`);
  process.send({ type: 'ready' });
} catch (err) {
  process.send({ type: 'init-error', error: errorOf(err) }, () => process.exit(1));
}

process.on('message', (msg) => {
  if (!msg || msg.type !== 'invoke' || !handler) return;
  process.env._X_AMZN_TRACE_ID = msg.traceId;
  const deadline = Date.now() + msg.timeoutMs;
  const context = {
    callbackWaitsForEmptyEventLoop: true,
    functionName: process.env.AWS_LAMBDA_FUNCTION_NAME,
    functionVersion: process.env.AWS_LAMBDA_FUNCTION_VERSION,
    invokedFunctionArn: `arn:aws:lambda:${process.env.AWS_REGION}:123456789012:function:${process.env.AWS_LAMBDA_FUNCTION_NAME}`,
    memoryLimitInMB: process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE,
    awsRequestId: msg.requestId,
    logGroupName: process.env.AWS_LAMBDA_LOG_GROUP_NAME,
    logStreamName: process.env.AWS_LAMBDA_LOG_STREAM_NAME,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
  Promise.resolve()
    .then(() => handler(msg.event, context))
    .then(
      (value) => process.send({ type: 'result', id: msg.id, value: value === undefined ? null : value }),
      (err) => process.send({ type: 'result', id: msg.id, error: errorOf(err) }),
    );
});

process.on('disconnect', () => process.exit(0));

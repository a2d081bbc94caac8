#!/bin/sh
# Starts the documents renderer's Chromium for the local runtime (CHROMIUM_LAUNCHER, lib/local/runtime.ts) so that
# it dies with the runtime's process: puppeteer starts the browser in a process group of its own, so killing the
# runtime's group (or SIGKILL, which runs no exit hook) would leave it running. setpriv's parent-death signal kills
# it the moment its parent (the runtime) dies. Without setpriv (util-linux) the browser starts as it always did.
if command -v setpriv >/dev/null 2>&1; then
  exec setpriv --pdeathsig KILL -- "$CHROMIUM_EXECUTABLE" "$@"
fi
exec "$CHROMIUM_EXECUTABLE" "$@"

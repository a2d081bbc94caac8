// Moved to lambdas/shared/http/openapi.ts (both services' GET /api build on it). This re-export keeps the old import
// path working for test/unit/openapi.test.ts; delete it once that import points to the shared module.
export * from '../../shared/http/openapi';

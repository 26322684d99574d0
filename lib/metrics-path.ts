/**
 * Where a gateway reads its upstream's Prometheus metrics (decision 040 "Metrics"): `GET /api/internal/metrics` with
 * the internal key in `x-internal-key`. The platform serves it (platform/core/metrics.ts); the gateway appends the
 * text to its own `/metrics` (server/observability/metrics.ts). Any upstream that serves this path is read alike.
 */
export const PLATFORM_METRICS_PATH = '/api/internal/metrics';

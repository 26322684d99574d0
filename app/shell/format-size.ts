/** A file size as pages show it: "12.3 MB" (1 MB = 1024 × 1024 bytes), or whole KB (at least 1) below 1 MB. */
export function formatSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

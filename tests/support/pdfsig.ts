/** poppler's signature checker, for the suites that verify signed PDFs (e2e certificate, server/pdf/pades). */
import { execFileSync } from 'node:child_process';

/** pdfsig's report of `file` (pdfsig exits non-zero for an invalid signature; its report is what matters). */
export function pdfsig(file: string): string {
  try {
    return execFileSync('pdfsig', [file], { encoding: 'utf8' });
  } catch (err) {
    return String((err as { stdout?: string }).stdout ?? '');
  }
}

/** True when poppler's pdfsig is installed (the suites that need it skip without it). */
export const hasPdfsig = (() => {
  try {
    execFileSync('pdfsig', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/**
 * The format of an issued invoice file, told by its bytes, never by its name (spec 02 §2 "Invoices";
 * docs/decisions/022-invoices.md): a PDF, or an OFD (GB/T 33190: a ZIP with `OFD.xml` at its root).
 */
import yauzl from 'yauzl';
import { sniffType } from '../files/temp.ts';

/** True when the ZIP at `filePath` has an `OFD.xml` entry at its root (GB/T 33190: an OFD is such a ZIP). */
async function hasOfdRoot(filePath: string): Promise<boolean> {
  let zip: yauzl.ZipFile | undefined;
  try {
    zip = await yauzl.openPromise(filePath, { lazyEntries: true });
    for await (const entry of zip.eachEntry()) if (entry.fileName === 'OFD.xml') return true;
    return false;
  } catch {
    return false;
  } finally {
    zip?.close();
  }
}

/** The format of an issued invoice file by its bytes: PDF (`%PDF-`), OFD (a ZIP with `OFD.xml`), or null. */
export async function invoiceFileFormat(filePath: string): Promise<'pdf' | 'ofd' | null> {
  const ext = (await sniffType(filePath))?.ext;
  if (ext === 'pdf') return 'pdf';
  if (ext === 'zip' && (await hasOfdRoot(filePath))) return 'ofd';
  return null;
}

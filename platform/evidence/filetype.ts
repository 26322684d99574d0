/**
 * Evidence type detection from the bytes, not the name (codes of spec 01 §9): image/* → 2, audio/* → 3,
 * video/* → 4, PDF/Office/OpenDocument/RTF/EPUB or valid UTF-8 text without NULs → 1 (document), anything else → 5.
 */
import type { FileTypeCode } from '../../contract/evidence.ts';
import { sniffType } from '../files/temp.ts';

const DOCUMENT_MIMES = new Set([
  'application/pdf',
  'application/msword',
  'application/x-cfb', // legacy .doc/.xls/.ppt (OLE compound file)
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
  'application/rtf',
  'application/epub+zip',
]);
const DOCUMENT_PREFIXES = [
  'application/vnd.openxmlformats-officedocument.',
  'application/vnd.oasis.opendocument.',
];

/** The detected type code and MIME type of a stored file. */
export interface DetectedType {
  fileType: FileTypeCode;
  mime: string;
}

/** Maps a detected MIME type (or none) plus the text check to a type code 1–5. */
export function classify(mime: string | undefined, isText: boolean): DetectedType {
  if (mime?.startsWith('image/')) return { fileType: 2, mime };
  if (mime?.startsWith('audio/')) return { fileType: 3, mime };
  if (mime?.startsWith('video/')) return { fileType: 4, mime };
  if (mime && (DOCUMENT_MIMES.has(mime) || DOCUMENT_PREFIXES.some((p) => mime.startsWith(p)))) {
    return { fileType: 1, mime };
  }
  if (isText) return { fileType: 1, mime: mime ?? 'text/plain; charset=utf-8' };
  return { fileType: 5, mime: mime ?? 'application/octet-stream' };
}

/**
 * Detects the type of the file at `filePath` from its leading bytes (file-type) and the streaming text check.
 * @param isText from files/temp.ts `ReceivedFile.isText`
 */
export async function detectFileType(filePath: string, isText: boolean): Promise<DetectedType> {
  return classify((await sniffType(filePath))?.mime, isText);
}

const EXTENSION_TYPES: Record<string, FileTypeCode> = {};
for (const [code, exts] of [
  [1, 'pdf doc docx xls xlsx ppt pptx odt ods odp rtf txt csv md epub wps et dps'],
  [2, 'jpg jpeg png gif bmp webp tif tiff heic heif svg ico'],
  [3, 'mp3 wav aac flac ogg oga m4a amr wma opus ape'],
  [4, 'mp4 mov avi mkv wmv flv webm m4v 3gp mpg mpeg ts rmvb'],
] as const) {
  for (const ext of exts.split(' ')) EXTENSION_TYPES[ext] = code;
}

/**
 * The type code a user-given file name suggests (hash evidence, spec 01 §2.3: the platform never sees the bytes, so
 * the name is all there is — not proof, and the certificate says so). Unknown or missing extension → 5 (other).
 */
export function typeFromName(fileName: string | undefined): FileTypeCode {
  const m = /\.([0-9A-Za-z]{1,8})$/.exec(fileName ?? '');
  return (m && EXTENSION_TYPES[m[1]!.toLowerCase()]) || 5;
}

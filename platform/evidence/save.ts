/**
 * Saving evidence of each kind from what a request carried (spec 01 §2.1–2.3; contract `EvidencePaths`): an
 * uploaded file (type from its bytes), a submitted SHA-256 (hash evidence: the file never reaches us), or user data
 * (a CSV/XLSX upload or typed fields and rows, normalised to CSV by property.ts). Each checks what the route could not, then
 * stores through {@link saveEvidence}. Temp files stay the caller's to discard.
 */
import { ApiCode } from '../../contract/envelope.ts';
import {
  EvidenceMsg,
  type SaveEvidenceData,
  SaveEvidenceFields,
  type SaveHashBody,
  SavePropertyFields,
} from '../../contract/evidence.ts';
import { Msg } from '../../contract/messages.ts';
import { ApiError, parseInput } from '../core/errors.ts';
import type { PlatformDb } from '../db/database.ts';
import type { Intake, IntakeLimits } from '../files/intake.ts';
import type { FileBucket } from '../files/storage.ts';
import { discardTemp } from '../files/temp.ts';
import { detectFileType, typeFromName } from './filetype.ts';
import {
  normaliseTyped,
  normaliseUpload,
  PROPERTY_FILE_NAME,
  PROPERTY_MIME,
  type NormalisedData,
} from './property.ts';
import { saveEvidence, type EvidenceExtras } from './service.ts';
import type { EvidenceKind } from './schema.ts';

/** Largest user-data file accepted (bytes), below MAX_UPLOAD_BYTES: 100 000 rows of text fit easily. */
export const PROPERTY_MAX_UPLOAD_BYTES = 200 * 1024 * 1024;
/** Largest typed `fields`/`rows` multipart field (bytes); urlencoded and JSON bodies are capped by bodyLimit. */
const PROPERTY_MAX_FIELD_BYTES = 16 * 1024 * 1024;

/** busboy limits of the file upload (`maxBytes`: MAX_UPLOAD_BYTES). */
export function fileUploadLimits(maxBytes: number): IntakeLimits {
  return { fileSize: maxBytes, files: 1, fields: 20, fieldSize: 64 * 1024, parts: 30 };
}

/** busboy limits of the user-data upload (`maxBytes`: the smaller of MAX_UPLOAD_BYTES and 200 MiB). */
export function propertyUploadLimits(maxBytes: number): IntakeLimits {
  return { ...fileUploadLimits(maxBytes), fieldSize: PROPERTY_MAX_FIELD_BYTES };
}

/** Longest file name kept (characters); longer names are cut, keeping the extension. */
const MAX_FILE_NAME = 200;

/** A file name safe to store and show: control characters and slashes replaced, at most 200 characters. */
export function cleanFileName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const n = name.replace(/[\u0000-\u001f\u007f/\\]/g, '_').trim() || 'file';
  if (n.length <= MAX_FILE_NAME) return n;
  const dot = n.lastIndexOf('.');
  const ext = dot > 0 && n.length - dot <= 16 ? n.slice(dot) : '';
  return n.slice(0, MAX_FILE_NAME - ext.length) + ext;
}

/** What the save calls need: the database and the evidence bucket. */
export interface SaveDeps {
  pdb: PlatformDb;
  storage: FileBucket;
}

/** A saved evidence and what the route logs of it. */
export interface Saved {
  data: SaveEvidenceData;
  log: Record<string, unknown>;
}

/** App evidence's kind and device fields (the open API, decision 039); absent: file or hash evidence. */
export interface SaveAs {
  kind: EvidenceKind;
  extras: EvidenceExtras;
}

/**
 * Saves the uploaded file of `intake` as file evidence of `userId` (or as `as` says): title defaults to the file name
 * (else the first 16 hex of its SHA-256), type from its bytes.
 * @throws ApiError 400 `fileRequired`, `fileEmpty`, or the first message of the text fields
 */
export async function saveUploadedFile(
  deps: SaveDeps,
  userId: number,
  intake: Intake,
  as?: SaveAs,
): Promise<Saved> {
  const received = intake.files[0];
  if (!received) throw new ApiError(ApiCode.BAD_REQUEST, EvidenceMsg.fileRequired);
  if (received.size === 0) throw new ApiError(ApiCode.BAD_REQUEST, Msg.fileEmpty);
  const text = parseInput(SaveEvidenceFields, intake.fields);
  const fileName = cleanFileName(received.fileName);
  const type = await detectFileType(received.path, received.isText);
  const data = await saveEvidence(deps.pdb, deps.storage, {
    userId,
    title: text.title ?? (cleanFileName(fileName).slice(0, 100) || received.sha256.slice(0, 16)),
    label: text.label ?? '',
    fileName,
    file: received,
    type,
    ...as,
  });
  return { data, log: { baoquan: data.baoquan, size: received.size, fileType: type.fileType } };
}

/**
 * Saves hash evidence of `userId`: the submitted SHA-256 and declared name and size; no bytes are held. `extras`: the
 * device fields an app sent with it (the open API).
 */
export async function saveHashEvidence(
  deps: SaveDeps,
  userId: number,
  body: SaveHashBody,
  extras?: EvidenceExtras,
): Promise<Saved> {
  const fileName = body.fileName ? cleanFileName(body.fileName) : '';
  const data = await saveEvidence(deps.pdb, deps.storage, {
    userId,
    title: body.title ?? (fileName || body.hash.slice(0, 16)),
    label: body.label ?? '',
    fileName,
    file: { path: null, size: body.fileSize ?? 0, sha256: body.hash },
    type: { fileType: typeFromName(fileName), mime: '' },
    kind: 'hash',
    ...(extras ? { extras } : {}),
  });
  return { data, log: { baoquan: data.baoquan } };
}

/**
 * The text fields of a non-multipart user-data body (form or JSON): strings as they are, arrays (typed rows sent as
 * JSON) as JSON text.
 */
export function propertyFieldsOf(body: unknown): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries((body ?? {}) as Record<string, unknown>)) {
    if (typeof v === 'string') fields[k] = v;
    else if (Array.isArray(v)) fields[k] = JSON.stringify(v);
  }
  return fields;
}

/**
 * Saves user data of `userId` from an uploaded CSV/XLSX file (the first file of `intake`) or from typed `fields` and
 * `rows` (JSON text). An empty, nameless file part (a form sent without choosing a file) counts as no file. Title
 * defaults to the file's name without extension, else 用户数据.
 * @param tmpDir the temp area for the normalised CSV (deleted here whatever happens)
 * @throws ApiError 400 with the messages of property.ts, `propertyNoRows`, `propertyDataRequired`
 */
export async function savePropertyEvidence(
  deps: SaveDeps,
  userId: number,
  intake: Pick<Intake, 'fields' | 'files'>,
  tmpDir: string,
): Promise<Saved> {
  const { fields } = intake;
  const text = parseInput(SavePropertyFields, fields);
  const part = intake.files[0];
  const upload = part && (part.size > 0 || part.fileName !== '') ? part : undefined;
  let normalised: NormalisedData | null = null;
  try {
    if (upload) normalised = await normaliseUpload(upload, tmpDir);
    else if (fields.fields !== undefined && fields.rows !== undefined)
      normalised = await normaliseTyped(fields.fields, fields.rows, tmpDir);
    else if (fields.fields !== undefined) throw new ApiError(ApiCode.BAD_REQUEST, EvidenceMsg.propertyNoRows);
    else throw new ApiError(ApiCode.BAD_REQUEST, EvidenceMsg.propertyDataRequired);
    // the name of any file part, even the empty one left out above (cleanFileName gives it 'file')
    const fromName = part
      ? cleanFileName(part.fileName)
          .replace(/\.[0-9A-Za-z]{1,8}$/, '')
          .slice(0, 100)
      : '';
    const data = await saveEvidence(deps.pdb, deps.storage, {
      userId,
      title: text.title ?? (fromName || EvidenceMsg.propertyDefaultTitle),
      label: text.label ?? '',
      fileName: PROPERTY_FILE_NAME,
      file: normalised,
      type: { fileType: 1, mime: PROPERTY_MIME },
      kind: 'property',
      extras: { data_lines: normalised.lines, data_fields: JSON.stringify(normalised.fields) },
    });
    return {
      data,
      log: { baoquan: data.baoquan, rows: normalised.lines, fields: normalised.fields.length },
    };
  } finally {
    await discardTemp(normalised);
  }
}

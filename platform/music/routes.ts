/**
 * Music works (contract/music.ts `MusicPaths`; decision 039): a verified user preserves an audio file with the
 * work's title, authors by role and ISRC. The file is received like any upload (streamed into the temp area while
 * hashed); its duration and format are read from its bytes with music-metadata — a file it cannot read as audio is
 * refused (400 MusicMsg.notAudio) and nothing is kept. The evidence is of kind `music`, its work stored with it
 * (`evidences.work_json`) for the certificate (music/certificate-music.ts).
 */
import type { FastifyInstance } from 'fastify';
import { ApiCode, ok } from '../../contract/envelope.ts';
import { EvidenceMsg } from '../../contract/evidence.ts';
import { Msg } from '../../contract/messages.ts';
import {
  MusicMsg,
  MusicPaths,
  musicFieldsOf,
  SaveMusicFields,
  type MusicWork,
} from '../../contract/music.ts';
import { currentUser } from '../account/auth.ts';
import { ApiError, parseInput } from '../core/errors.ts';
import { fileUploadLimits, saveUploadedFile } from '../evidence/save.ts';

/** Duration and format of the audio file at `path` (music-metadata). @throws ApiError 400 notAudio */
export async function readAudioFormat(path: string): Promise<Omit<MusicWork, 'isrc' | 'authors'>> {
  const notAudio = new ApiError(ApiCode.BAD_REQUEST, MusicMsg.notAudio);
  // Loaded on first use (~2 MB of heap otherwise carried by every platform; decision 056).
  const { parseFile } = await import('music-metadata');
  const meta = await parseFile(path, { duration: true, skipCovers: true }).catch(() => {
    throw notAudio;
  });
  const f = meta.format;
  if (!f.container || f.hasAudio === false || !(f.sampleRate || f.duration)) throw notAudio;
  return {
    durationSeconds: typeof f.duration === 'number' && Number.isFinite(f.duration) ? f.duration : null,
    container: f.container,
    codec: f.codec ?? '',
    sampleRate: f.sampleRate ?? null,
    bitrate: typeof f.bitrate === 'number' && Number.isFinite(f.bitrate) ? Math.round(f.bitrate) : null,
    channels: f.numberOfChannels ?? null,
  };
}

/** Registers the music route (needs the services and auth plugins). */
export async function musicRoutes(app: FastifyInstance): Promise<void> {
  const { maxUploadBytes } = app.config;
  const deps = { pdb: app.pdb, storage: app.files.bucket('evidence') };

  app.post(MusicPaths.save, { preHandler: [app.requireUser, app.requireVerified] }, async (request) => {
    if (!request.isMultipart()) throw new ApiError(ApiCode.BAD_REQUEST, EvidenceMsg.fileRequired);
    const intake = await app.files.receive(request, {
      limits: fileUploadLimits(maxUploadBytes),
      tooLarge: Msg.fileTooLarge(maxUploadBytes),
      accept: (field) => field === 'file',
    });
    try {
      const fields = parseInput(SaveMusicFields, musicFieldsOf(intake.fields));
      const file = intake.files[0];
      if (!file || !file.fileName) throw new ApiError(ApiCode.BAD_REQUEST, EvidenceMsg.fileRequired);
      if (file.size === 0) throw new ApiError(ApiCode.BAD_REQUEST, Msg.fileEmpty);
      const work: MusicWork = {
        isrc: fields.isrc,
        authors: fields.authors,
        ...(await readAudioFormat(file.path)),
      };
      const saved = await saveUploadedFile(
        deps,
        currentUser(request).id,
        {
          ...intake,
          fields: { title: fields.title ?? file.fileName, ...(fields.label ? { label: fields.label } : {}) },
        },
        { kind: 'music', extras: { work_json: JSON.stringify(work) } },
      );
      request.log.info({ ...saved.log, durationSeconds: work.durationSeconds }, 'music work saved');
      return ok(saved.data, EvidenceMsg.preserved);
    } finally {
      await intake.discard();
    }
  });
}

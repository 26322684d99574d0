/**
 * The real-name verification area's tables as Kysely sees them (migrations 0005, 0009, 0010, 0021): the submitted
 * profiles, their private images and the Alipay face certifications (spec 02 §3 KycInfo, §4). They join the
 * platform's `Database` by interface merging (decision 060); row types are imported from here. Times are unix
 * seconds, sizes bytes.
 */
import type { Generated, Selectable } from 'kysely';
import type { Defaulted } from '../db/schema.ts';

/** A user's real-name verification submission (migration 0005; spec 02 §3 KycInfo). */
export interface KycProfilesTable {
  user_id: number;
  kind: 'personal' | 'enterprise';
  /** 1 photo, 3 face, 0 enterprise. */
  auth_type: number;
  /** JSON of the submitted text fields, names as the submit payloads (spec 02 §3). */
  fields_json: string;
  /** Unix seconds of the last submission. */
  submitted_at: number;
  /** Unix seconds of the last operator decision or face result, null before. */
  reviewed_at: number | null;
  /**
   * Verified enterprise: AppID and the SecurityKey's stored form (its hash and display hint, never the key:
   * kyc/security-key.ts; null until first shown); `security_key_shown` 1 once the full key was shown.
   */
  app_id: string | null;
  security_key: string | null;
  security_key_shown: Defaulted<number>;
  /** The SecurityKey sealed for signature checks (open-api/sealed-keys.ts; migration 0021); null for older keys. */
  security_key_sealed: Defaulted<string | null>;
  /**
   * Live personal profiles (under review or verified): HMAC of the normalised ID number, unique (migration 0009;
   * platform/kyc/id-number.ts). Null otherwise.
   */
  id_key: Defaulted<string | null>;
}

/** A private KYC image (migration 0005); bytes in `${dataDir}/kyc/<storage_key>`. One per (user, field). */
export interface KycImagesTable {
  id: Generated<number>;
  user_id: number;
  /** license | file | authorFront | authorBack | authorHand. */
  field: string;
  storage_key: string;
  mime: string;
  /** Bytes. */
  file_size: number;
  created_at: number;
}

/** The states of a face certification. */
export type FaceState = 'open' | 'passed' | 'failed' | 'expired';

/** An Alipay face certification (migration 0005; spec 02 §4 face flow). */
export interface FaceCertificationsTable {
  id: Generated<number>;
  user_id: number;
  certify_id: string;
  outer_order_no: string;
  state: Defaulted<FaceState>;
  fail_reason: Defaulted<string>;
  created_at: number;
  /** Unix seconds after which an open certification counts as expired. */
  expires_at: number;
  finished_at: number | null;
}

declare module '../db/schema.ts' {
  interface Database {
    kyc_profiles: KycProfilesTable;
    kyc_images: KycImagesTable;
    face_certifications: FaceCertificationsTable;
  }
}

export type KycProfileRow = Selectable<KycProfilesTable>;
export type KycImageRow = Selectable<KycImagesTable>;
export type FaceCertificationRow = Selectable<FaceCertificationsTable>;

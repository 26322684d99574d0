/**
 * The static migration list (Kysely `Migrator` provider): names sort in application order. Each migration is a
 * factory of the dialect because auto-increment keys are spelled differently on SQLite and PostgreSQL.
 */
import type { Migration, MigrationProvider } from 'kysely';
import type { Dialect } from '../dialect.ts';
import { initial } from './0001_initial.ts';
import { merkleLedger } from './0002_merkle.ts';
import { evidenceKinds } from './0003_evidence_kinds.ts';
import { accountArea } from './0004_account_area.ts';
import { kyc } from './0005_kyc.ts';
import { opsRoles } from './0006_ops_roles.ts';
import { billing } from './0007_billing.ts';
import { invoice } from './0008_invoice.ts';
import { kycIdUnique } from './0009_kyc_id_unique.ts';
import { kycSecurityKey } from './0010_kyc_security_key.ts';
import { evidenceSearch } from './0011_evidence_search.ts';
import { notary } from './0012_notary.ts';
import { notaryApplications } from './0013_notary_applications.ts';
import { notaryWorkflow } from './0014_notary_workflow.ts';
import { billingPurpose } from './0015_billing_purpose.ts';
import { notaryPaper } from './0016_notary_paper.ts';
import { ledgerWitnesses } from './0017_ledger_witnesses.ts';
import { ledgerTimestamps } from './0018_ledger_timestamps.ts';
import { captureJobs } from './0019_capture_jobs.ts';
import { captureSteps } from './0020_capture_steps.ts';
import { openApi } from './0021_open_api.ts';
import { musicWorks } from './0022_music_works.ts';
import { jobs } from './0023_jobs.ts';
import { fileIntents } from './0024_file_intents.ts';
import { captureJobsEvidence } from './0025_capture_jobs_evidence.ts';
import { pointsSources } from './0026_points_sources.ts';
import { evidenceEvents } from './0027_evidence_events.ts';
import { promoCodes } from './0028_promo_codes.ts';
import { renderJobs } from './0029_render_jobs.ts';

/** The provider for `dialect`; add new migrations here in order. */
export function migrationProvider(dialect: Dialect): MigrationProvider {
  return {
    async getMigrations(): Promise<Record<string, Migration>> {
      return {
        '0001_initial': initial(dialect),
        '0002_merkle': merkleLedger(dialect),
        '0003_evidence_kinds': evidenceKinds(dialect),
        '0004_account_area': accountArea(dialect),
        '0005_kyc': kyc(dialect),
        '0006_ops_roles': opsRoles(dialect),
        '0007_billing': billing(dialect),
        '0008_invoice': invoice(dialect),
        '0009_kyc_id_unique': kycIdUnique(dialect),
        '0010_kyc_security_key': kycSecurityKey(dialect),
        '0011_evidence_search': evidenceSearch(dialect),
        '0012_notary': notary(dialect),
        '0013_notary_applications': notaryApplications(),
        '0014_notary_workflow': notaryWorkflow(dialect),
        '0015_billing_purpose': billingPurpose(),
        '0016_notary_paper': notaryPaper(),
        '0017_ledger_witnesses': ledgerWitnesses(dialect),
        '0018_ledger_timestamps': ledgerTimestamps(),
        '0019_capture_jobs': captureJobs(dialect),
        '0020_capture_steps': captureSteps(),
        '0021_open_api': openApi(),
        '0022_music_works': musicWorks(),
        '0023_jobs': jobs(dialect),
        '0024_file_intents': fileIntents(),
        '0025_capture_jobs_evidence': captureJobsEvidence(),
        '0026_points_sources': pointsSources(dialect),
        '0027_evidence_events': evidenceEvents(dialect),
        '0028_promo_codes': promoCodes(dialect),
        '0029_render_jobs': renderJobs(dialect),
      };
    },
  };
}

/** The site facts of an unconfigured gateway (server/config/gateway.ts defaults), for hand-made configs and contexts. */
import type { SiteFacts } from '../../contract/issuer.ts';

/** No PUBLIC_URL, the default issuer (存证云, 合作公证机构, no contact), no storage host rewrite. */
export const TEST_SITE: SiteFacts = {
  publicUrl: null,
  issuer: { operator: '存证云', notaryOffice: '合作公证机构', contact: null },
  storageHostRewrite: '',
};

/**
 * The spec's route map in one place (spec 01 §2, spec 02 §2), composed from the business areas' route modules.
 * Explicit config, not file-name magic, so every path of the spec is visible here.
 */
import { type RouteConfig, index, route } from '@react-router/dev/routes';

export default [
  // public
  index('home/home.tsx'),
  route('home', 'home/home.tsx', { id: 'home-alias' }),
  route('helpCenter', 'home/help-center.tsx'),
  route('activity', 'home/activity.tsx'),
  route('appDownload', 'home/app-download.tsx'),
  route('user-agreement', 'legal/legal-page.tsx'),
  route('privacy', 'legal/legal-page.tsx', { id: 'privacy' }),
  route('clause', 'legal/legal-page.tsx', { id: 'clause' }),
  route('login', 'account/login.tsx'),
  route('register', 'account/sms-password.tsx'),
  route('forgetpwd', 'account/sms-password.tsx', { id: 'forgetpwd' }),
  route('logout', 'account/logout.tsx'),
  // certificates (public: the link is the secret)
  route('attestation/:attestationId', 'certificate/attestation.tsx'),
  route('attestation/:attestationId/print', 'certificate/print.tsx'),
  route('English/attestation/:attestationId', 'certificate/english.tsx'),
  route('English/attestation/:attestationId/print', 'certificate/print.tsx', { id: 'english-print' }),
  route('mobile/attestation/:attestationId/:token', 'certificate/mobile.tsx'),
  route('mobile/preview/:fileUrl/:type?/:baoquan?', 'certificate/mobile.tsx', { id: 'mobile-preview' }),
  route('mobile/previewDoc/:fileUrl/:type', 'certificate/mobile.tsx', { id: 'mobile-preview-doc' }),
  route('mobile/previewProgress/:fileUrl', 'certificate/mobile.tsx', { id: 'mobile-preview-progress' }),
  // spec 02 §2 route guard: extra slashes inside the file-url become asterisks (a redirect to the one-segment path)
  route('mobile/previewProgress/*', 'certificate/preview-progress-guard.ts'),
  route('evidencesPro/:attestationId', 'certificate/attestation.tsx', { id: 'evidences-pro' }),
  route('evidencesWeb/:attestationId', 'certificate/attestation.tsx', { id: 'evidences-web' }),
  // ledger explorer and key
  route('chain/tx/:hash', 'ledger/chain-tx.tsx'),
  route('.well-known/cunzheng-ledger-key.pem', 'ledger/public-key.ts'),
  // C2SP checkpoint and note verifier key (decision 035)
  route('checkpoint', 'ledger/checkpoint.ts'),
  // the same under the log's tlog-tiles prefix, with the tiles
  route('ledger/checkpoint', 'ledger/checkpoint.ts', { id: 'ledger-tiles-checkpoint' }),
  route('ledger/tile/*', 'ledger/tiles.ts'),
  // check an evidence package: in the browser, uploaded without JavaScript, or with the saved offline verifier
  route('verify', 'verify/package-check.tsx'),
  route('verify/offline', 'verify/offline.ts'),
  route('.well-known/cunzheng-ledger.vkey', 'ledger/checkpoint.ts', { id: 'ledger-vkey' }),
  // public verification
  route('queryAuthentication', 'verify/layout.tsx', [
    index('verify/index.tsx'),
    route('safekeeping', 'verify/safekeeping.tsx'),
    route('certificate', 'verify/certificate.tsx'),
    route('keepSingle', 'verify/keep-single.tsx'),
    route('electronicData', 'verify/electronic-data.tsx'),
    route('mutualEvidence', 'verify/mutual-evidence.tsx'),
    route('notarial', 'verify/notarial.tsx'),
  ]),
  route('English/safekeeping', 'verify/safekeeping.tsx', { id: 'english-safekeeping' }),
  // login required (the loaders call requireToken / authedCall)
  // online capture (decision 037): the top bar's 在线取证 is /evidences-all, the web captures' list
  route('newWeb', 'capture/new-web.tsx'),
  route('newProcess', 'capture/new-process.tsx'),
  route('newMobile', 'capture/new-mobile.tsx'),
  route('evidences-all/mobile-process', 'capture/mobile-list.tsx'),
  route('evidences-all/mobile/queue/:id', 'capture/mobile-queue.tsx'),
  route('evidences-all/music', 'capture/music-list.tsx'),
  route('evidences-all/music/new', 'capture/new-music.tsx'),
  route('evidences-all/process', 'capture/web-list.tsx', { id: 'evidences-all-process' }),
  route('evidences-all/process/queue/:id', 'capture/process-queue.tsx'),
  route('evidences-all/process/preview', 'capture/process-preview.tsx'),
  route('evidences-all', 'capture/web-list.tsx', { id: 'evidences-all' }),
  route('evidences-all/web', 'capture/web-list.tsx'),
  route('attestation-list', 'evidence/list-index.tsx'),
  route('attestation-list/file', 'evidence/list-file.tsx'),
  route('attestation-list/hash', 'evidence/list-hash.tsx'),
  route('attestation-list/property', 'evidence/list-property.tsx'),
  route('attestation-list/download', 'evidence/batch-download.tsx'),
  route('newAccessCard', 'evidence/new-file.tsx'),
  route('newAccessHashCard', 'evidence/new-hash.tsx'),
  route('newProperty', 'evidence/new-property.tsx'),
  // online notarisation (spec 02 §2 "Notary list", "Notary detail", "Notary order payment"; decision 034): the list,
  // the start, the four steps (each redirects a later step's URL to the order's current step), the detail, and the
  // bare print view of the four documents the signature step prints to signed PDFs
  route('notary', 'notary/list.tsx'),
  route('notary/selectList', 'notary/select-list.tsx'),
  route('notary/detail', 'notary/detail.tsx'),
  route('notary/document/:orderId/:docType', 'notary/document.tsx'),
  route('attestation-list/readingMaterial/applicationForm/:orderId/:type', 'notary/application-form.tsx'),
  route('attestation-list/readingMaterial/signature/:orderId/:type', 'notary/signature.tsx'),
  route('attestation-list/readingMaterial/deCode/:orderId/:type', 'notary/de-code.tsx'),
  route('attestation-list/readingMaterial/pay/:orderId/:type', 'notary/pay.tsx'),
  // account area
  route('setting', 'account/setting.tsx'),
  route('notifications', 'account/notifications.tsx'),
  route('signature', 'account/signature.tsx'),
  route('address', 'address/address.tsx'),
  // points, orders and payments (spec 02 §2 "Orders", "Notary order payment"; /weChat/{orderNo} is public, spec 01 §2.1)
  route('buyCredits', 'billing/buy-credits.tsx'),
  route('buyCredits/pay/:orderNo', 'billing/pay.tsx'),
  route('buyCredits/result', 'billing/result.tsx'),
  route('weChat/:orderNo', 'billing/wechat.tsx'),
  route('orders', 'billing/orders.tsx'),
  // the points history (积分明细; decision 057)
  route('points', 'billing/points.tsx'),
  // promotion codes (兑换码; decision 062)
  route('redeem', 'promo/redeem.tsx'),
  // invoices (spec 02 §2 "Invoices": heads, applications from paid recharges, details)
  route('invoice', 'invoice/invoice.tsx'),
  route('invoice/details', 'invoice/details.tsx'),
  route('orders/makeOutInvoice', 'invoice/make-out.tsx'),
  // real-name verification (spec 02 §2; /kyc-info and /person-info reuse the enterprise and personal pages)
  route('no-type', 'kyc/no-type.tsx'),
  route('organization-kyc', 'kyc/enterprise.tsx'),
  route('kyc-info', 'kyc/enterprise.tsx', { id: 'kyc-info' }),
  route('personage-kyc', 'kyc/personal.tsx'),
  route('person-info', 'kyc/personal.tsx', { id: 'person-info' }),
  route('personage-face-kyc', 'kyc/face.tsx'),
  route('kyc/authorization-template', 'kyc/authorization-template.tsx'),
  // operator console with roles (decision 015; separate login, bare pages): home, each area's queue, audit log
  route('ops', 'ops/console.tsx', [
    index('ops/home.tsx'),
    route('kyc', 'ops/kyc/queue.tsx'),
    route('kyc/:userId', 'ops/kyc/detail.tsx'),
    route('billing', 'ops/billing/orders.tsx'),
    route('billing/:orderNo', 'ops/billing/order.tsx'),
    route('invoice', 'ops/invoice/queue.tsx'),
    route('invoice/:id', 'ops/invoice/detail.tsx'),
    route('invoice/:id/file/:fileId', 'ops/invoice/file.ts'),
    route('notary', 'ops/notary/queue.tsx'),
    route('notary/:id', 'ops/notary/detail.tsx'),
    route('notary/:id/file/:fileId', 'ops/notary/file.ts'),
    route('notary/:id/evidence/:evidenceId', 'ops/notary/file.ts', { id: 'ops-notary-evidence' }),
    route('promo', 'ops/promo/batches.tsx'),
    route('promo/:id', 'ops/promo/batch.tsx'),
    route('audit', 'ops/audit.tsx'),
    route('ledger', 'ops/ledger/witnesses.tsx'),
    route('jobs', 'ops/jobs.tsx'),
  ]),
  route('ops/login', 'ops/login.tsx'),
  // the notarial certificate's print view (bare, outside the console's layout), printed to a signed PDF on issue
  route('ops/notary/:id/certificate', 'ops/notary/certificate.tsx'),
  route('ops/logout', 'ops/logout.tsx'),
  // errors
  route('404', 'shell/not-found.tsx'),
  route('*', 'shell/not-found.tsx', { id: 'catch-all' }),
] satisfies RouteConfig;

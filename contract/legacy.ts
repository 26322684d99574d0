/**
 * Transitional aliases while the code moves to the per-area contract modules (removed when every importer uses the
 * area modules). Not for new code.
 */
import { AccountMsg, AccountPaths } from './account.ts';
import { AddressMsg, AddressPaths } from './address.ts';
import { EvidencePaths } from './evidence.ts';
import { Msg } from './messages.ts';
import { NotificationMsg, NotificationPaths } from './notification.ts';
import { SignatureMsg, SignaturePaths } from './signature.ts';
import { VerifyPaths } from './verify.ts';

export const AccountAreaPaths = {
  editPassword: AccountPaths.editPassword,
  editExtractCode: AccountPaths.editExtractCode,
  ...NotificationPaths,
  ...SignaturePaths,
  ...AddressPaths,
} as const;

export const AccountAreaMsg = {
  oldPasswordWrong: AccountMsg.oldPasswordWrong,
  newsNotFound: NotificationMsg.newsNotFound,
  newsRequired: NotificationMsg.newsRequired,
  sealNotFound: SignatureMsg.sealNotFound,
  addressNotFound: AddressMsg.addressNotFound,
  idRequired: Msg.invalidId,
  passwordChangedNews: AccountMsg.passwordChangedNews,
  evidenceSavedNews: (title: string, baoquan: string) => `您的证据「${title}」已保全成功，保全号：${baoquan}`,
} as const;

export const EvidenceKindPaths = {
  saveHash: EvidencePaths.saveHash,
  saveProperty: EvidencePaths.saveProperty,
  hashList: EvidencePaths.hashList,
  hashLabels: EvidencePaths.hashLabels,
  labelSave: EvidencePaths.labelSave,
  delData: EvidencePaths.delData,
  downloadBatch: EvidencePaths.downloadBatch,
  ...VerifyPaths,
} as const;

/**
 * What the notarisation area's calls answer (spec 02 §3 "Notary order list query", "Notary detail response", §7
 * "Notary"; docs/decisions/034-notary.md): a created order, the list, an order's detail with one page of its
 * evidences, the application, the documents' data, a document link, the pay state and the public check of a notarial
 * certificate. Types only, no zod: pages import them without loading a schema; contract/notary.ts re-exports them.
 * Field names at the boundary are the spec's.
 */
import type { NotarialCode, NotaryPayCode, NotaryStepCode } from './notary-codes.ts';

/** `createOrder` answer (decision 034: type, orderNo, number of records, money in points, step). */
export interface NotaryOrderCreated {
  id: number;
  type: number;
  orderNo: string;
  number: number;
  /** Points. */
  money: number;
  step: NotaryStepCode;
}

/** A row of the notary list (spec 02 §3 "Notary order list query"). */
export interface NotaryOrderRow {
  id: number;
  type: number;
  orderNo: string;
  /** "YYYY-MM-DD HH:mm:ss", Beijing time. */
  addTime: string;
  /** Evidences the order covers. */
  number: number;
  step: NotaryStepCode;
  /** Points. */
  money: number;
  pay: NotaryPayCode;
  /** null while the order is unfinished (shown as '-----'). */
  notarial: NotarialCode | null;
}

/** `orderList` answer. */
export interface NotaryOrderListData {
  count: number;
  list: NotaryOrderRow[];
}

/** An evidence of the detail's table (spec 02 §3 "Notary detail response", the fields this platform has). */
export interface NotaryDetailEvidence {
  id: number;
  baoquan: string;
  baoquan_no: string;
  title: string;
  /** The file's name ('' for a hash-only evidence). */
  name: string;
  label: string;
  type: number;
  /** "YYYY-MM-DD HH:mm:ss", Beijing time. */
  saveTime: string;
  fileHash: string;
  algorithm: 'SHA-256';
}

/** `detail` answer (spec 02 §3): the order's info and one page of its evidences. */
export interface NotaryDetailData {
  info: {
    orderNo: string;
    addTime: string;
    /** Points. */
    money: number;
    pay: NotaryPayCode;
    /** The pay type once paid (1 points, 2 Alipay, 3 WeChat), else null. */
    payType: number | null;
    /** The transfer screenshot's URL; none on this platform yet. */
    tranImg: string | null;
    type: number;
    step: NotaryStepCode;
    notarial: NotarialCode | null;
    /** The notarial certificate's number once the office accepted the order, else null. */
    certificateNo: string | null;
    /** The office's last remark to the user (more material asked, termination reason), else null. */
    officeRemark: string | null;
    /** The paper certificate: copies and address from the application, whether asked for, the waybill once sent. */
    paper: {
      copies: number;
      address: string;
      requestedAt: string | null;
      courierNumber: string | null;
    } | null;
  };
  list: NotaryDetailEvidence[];
  count: number;
}

/** The applicant of an order: the verified identity of its user (the ID or credit code masked). */
export interface NotaryApplicant {
  kind: 'personal' | 'enterprise';
  /** The person's name or the enterprise's. */
  name: string;
  /** The ID number or unified social credit code, masked. */
  idNumber: string;
}

/** `application` answer. */
export interface NotaryApplicationData {
  applicant: NotaryApplicant;
  /** The saved application (the address as it was when saved), or null before step 1 is done. */
  form: {
    purpose: string;
    usePlace: string;
    copies: number;
    recipient: string;
    phoneNumber: string;
    region: string;
    address: string;
    remark: string;
  } | null;
  /** True while step 1 may be saved: the order is open and at step 1. */
  editable: boolean;
  step: NotaryStepCode;
}

/** `documentData` answer: what the four documents of step 2 print. */
export interface NotaryDocumentData {
  orderNo: string;
  type: number;
  typeName: string;
  /** "YYYY-MM-DD HH:mm:ss", Beijing time. */
  addTime: string;
  /** The applicant in full (the documents name them; the answer goes to the owner only). */
  applicant: { kind: 'personal' | 'enterprise'; name: string; idNumber: string };
  form: NonNullable<NotaryApplicationData['form']>;
  /** The user's mobile (contact on the application). */
  mobile: string;
  evidences: { baoquan: string; title: string; name: string; saveTime: string; fileHash: string }[];
  /** The user's default seal as a `data:image/png;base64,` URL, or null (the documents then print the name). */
  seal: string | null;
  /** Points. */
  money: number;
  /** True once step 2 is done (the documents are signed and stored). */
  signed: boolean;
}

/** `downDoc` answer: the browser navigates to `downUrl` (spec 02 §7), a link that lives minutes. */
export interface NotaryDownData {
  downUrl: string;
}

/** `paysmsnews` answer. */
export interface NotaryPayNews {
  orderNo: string;
  pay: NotaryPayCode;
  /** Points. */
  money: number;
  /** The user's balance, points. */
  balance: number;
  step: NotaryStepCode;
}

/**
 * `notarialCheck` answer: who may see it is anyone holding the number, so no personal data. Certificate numbers
 * follow each other, so what opens more (the preservation numbers, each opening its evidence's certificate) and the
 * file's hash (which would let anyone claim the file) come only with the SHA-256 of the issued PDF itself.
 */
export interface NotarialCheckData {
  number: string;
  /** "YYYY-MM-DD HH:mm:ss", Beijing time. */
  issuedAt: string;
  /** The order's date, "YYYY-MM-DD HH:mm:ss". */
  orderTime: string;
  typeName: string;
  office: string;
  /** The preservation numbers the certificate covers; null unless `hashMatches`. */
  baoquan: string[] | null;
  /** SHA-256 of the issued PDF; null unless `hashMatches`. */
  sha256: string | null;
  /** Whether `hash` matched the issued PDF; null when no hash was given. */
  hashMatches: boolean | null;
}

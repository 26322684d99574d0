/**
 * The fixed wording of the notarisation documents (decision 034; ours — the spec names the documents but not
 * their text): the notice the applicant reads in step 1 and signs in step 2 (公证告知书), the undertaking (承诺书) and
 * the authorisation of the notary office to read the preserved data (授权委托书). Each a list of paragraphs; the
 * office's name is filled in. Written after the notarisation rules (《公证程序规则》) in plain terms. No I/O.
 */

/** 公证告知书: what the applicant must know before applying. */
export function noticeParagraphs(office: string): string[] {
  return [
    `一、申请人向${office}（以下简称“公证处”）申请办理保全证据公证，应当如实提供申请事项的相关信息和材料，并对其真实性、合法性负责。`,
    '二、申请人通过本平台保全的电子数据，其内容由申请人自行提交。公证处仅对电子数据的提取、固定过程及其与平台账本记录的一致性予以证明，不对电子数据所反映内容的真实性作出判断。',
    '三、申请人应当授权公证处读取所申请公证的电子数据。公证处读取数据的每一次操作均记入审计日志。',
    '四、公证费用按所选公证类型及证据数量以积分计收，在申请人支付后由公证处审查受理。受理前申请人可以终止申请，已支付的积分全额退回；受理后如需终止，请联系公证处处理。',
    '五、公证处审查中认为材料不全的，可以要求申请人补充材料；申请人拒绝补充或者提供虚假材料的，公证处将终止办理，并退回已支付的积分。',
    '六、公证处出具的电子公证书可在线下载，并可通过公证书编号在本平台核验；申请人申请纸质公证书的，公证处将寄送至申请人填写的收件地址。',
    '七、申请人对公证书有异议的，可以依照《中华人民共和国公证法》的规定向公证处提出复查申请。',
  ];
}

/** 承诺书: what the applicant undertakes. */
export function undertakingParagraphs(office: string): string[] {
  return [
    `本人（单位）向${office}申请办理保全证据公证，郑重承诺如下：`,
    '一、所提交的申请信息、身份信息及电子数据均真实、合法，来源合法，不侵犯他人合法权益；',
    '二、申请公证的事项不属于违反法律法规或者社会公序良俗的事项，所申请公证的电子数据不用于任何非法目的；',
    '三、已阅读并理解《公证告知书》的全部内容，愿意承担因提供虚假材料或者隐瞒真实情况而产生的一切法律责任；',
    '四、同意公证处以电子方式送达与本次公证有关的通知和文书。',
  ];
}

/** 授权委托书: the applicant authorises the office to read the listed preserved data. */
export function authorisationParagraphs(office: string): string[] {
  return [
    `委托人现授权${office}，为办理本次保全证据公证之目的，读取、下载并核验委托人在本平台保全的下列电子数据，并将其哈希值与平台账本记录进行比对。`,
    '授权范围仅限于下列电子数据，授权期限自委托人输入提取码确认授权之日起至本次公证办结之日止。公证处对所读取的数据负有保密义务，不得用于本次公证以外的用途。',
  ];
}

/**
 * /kyc/authorization-template: the power-of-attorney template of the enterprise form (spec 02 "Enterprise KYC
 * screen": "power-of-attorney image with a downloadable template"). A bare A4 page to print (or save as PDF), fill in,
 * sign, seal, and photograph for the 授权委托书 upload. No data of anyone: public.
 */
import type { Route } from './+types/authorization-template';

export const handle = { bare: true };

export const meta: Route.MetaFunction = () => [{ title: '授权委托书（模板） - 存证云' }];

const BLANK = '＿＿＿＿＿＿＿＿＿＿＿＿＿＿＿＿';

export default function AuthorizationTemplate() {
  return (
    <article className="print-sheet authorization-template">
      <p className="no-print muted">
        请打印本页（或在打印对话框中另存为 PDF），填写完整并加盖企业公章后，拍照或扫描上传至“授权委托书”。
      </p>
      <h1>授 权 委 托 书</h1>
      <p>存证云电子数据保全与在线公证平台：</p>
      <p className="indent">
        兹委托我单位员工 {BLANK}（身份证号码：{BLANK}
        ）作为我单位的授权经办人，代表我单位在贵平台办理企业实名认证、
        电子数据保全、在线公证申请及相关业务。经办人在上述授权范围内所签署的文件、提交的资料和作出的操作，我单位均予以认可，
        并承担相应的法律责任。
      </p>
      <p className="indent">授权期限：自 ＿＿＿＿年＿＿月＿＿日 至 ＿＿＿＿年＿＿月＿＿日。</p>
      <p className="indent">经办人无转委托权。</p>
      <table className="template-table">
        <tbody>
          <tr>
            <th>单位名称</th>
            <td />
          </tr>
          <tr>
            <th>统一社会信用代码</th>
            <td />
          </tr>
          <tr>
            <th>法定代表人</th>
            <td />
          </tr>
          <tr>
            <th>经办人姓名</th>
            <td />
          </tr>
          <tr>
            <th>经办人身份证号码</th>
            <td />
          </tr>
          <tr>
            <th>经办人手机号码</th>
            <td />
          </tr>
        </tbody>
      </table>
      <div className="template-sign">
        <p>法定代表人（签字）：</p>
        <p>经办人（签字）：</p>
        <p>委托单位（盖章）：</p>
        <p>日期：＿＿＿＿年＿＿月＿＿日</p>
      </div>
      <p className="small muted">附：经办人身份证正反面复印件（加盖单位公章）。</p>
    </article>
  );
}

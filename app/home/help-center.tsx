/** /helpCenter: answers to the questions users of an evidence platform ask first (content ours; spec shows none). */
import { Link } from 'react-router';
import type { Route } from './+types/help-center';
import { LegalPaths } from '../legal/paths.ts';
import { useAppUrl } from '../lib/base-path.ts';

/** The support contact (SUPPORT_CONTACT, e.g. a hotline and an e-mail address), when configured. */
export function loader({ context }: Route.LoaderArgs) {
  return { contact: context.site.issuer.contact };
}

export const meta: Route.MetaFunction = () => [{ title: '帮助中心 - 存证云' }];

const FAQ: { q: string; a: string }[] = [
  {
    q: '什么是数据保全？',
    a: '数据保全是在文件形成后立即计算其 SHA-256 哈希值，并连同保全时间、保全人一起写入防篡改账本。日后只要文件哈希一致，即可证明文件自保全之时起未被修改。',
  },
  {
    q: '保全证书谁可以查看？',
    a: '持有证书链接（含保全编号）的任何人都可以查看证书内容。保全编号为随机生成，无法被猜测。',
  },
  {
    q: '他人如何下载我保全的文件？',
    a: '您可以把证书链接和您的提取码一起提供给对方，对方在证书页输入提取码后即可下载原始文件。提取码可在账户设置中查看和修改。',
  },
  { q: '忘记密码怎么办？', a: '在登录页点击“忘记密码”，通过注册手机号接收短信验证码即可重置密码。' },
  {
    q: '单个文件大小有限制吗？',
    a: '单个文件默认不超过 2GB。文件在上传过程中即完成哈希计算，上传中断不会留下不完整的记录。',
  },
];

export default function HelpCenter({ loaderData }: Route.ComponentProps) {
  const appUrl = useAppUrl();
  const { contact } = loaderData;
  return (
    <section className="page narrow">
      <h1>帮助中心</h1>
      {FAQ.map((item) => (
        <details key={item.q} className="faq">
          <summary>{item.q}</summary>
          <p>{item.a}</p>
        </details>
      ))}
      <details className="faq" data-testid="faq-independent">
        <summary>不依赖存证云，如何独立核验证据包？</summary>
        <p>
          证据包中的 proof.json
          记录了文件哈希、账本记录、包含证明、签名树头，以及见证方联署和可信时间戳（如有）。任何人都可以用公开的标准工具核验：
        </p>
        <ul>
          <li>
            账本公钥：<a href={appUrl('/.well-known/cunzheng-ledger-key.pem')}>PEM 格式</a>、
            <a href={appUrl('/.well-known/cunzheng-ledger.vkey')}>签名笔记验证密钥</a>
            （请通过其他渠道向我们核对公钥指纹）；
          </li>
          <li>
            最新检查点：<a href={appUrl('/ledger/checkpoint')}>/ledger/checkpoint</a>（C2SP tlog-checkpoint
            格式），账本瓦片位于 /ledger/tile/（C2SP tlog-tiles
            格式），任何瓦片客户端都可以据此计算包含证明和一致性证明；
          </li>
          <li>见证方联署（C2SP tlog-cosignature）证明我们无法改写已被见证的账本历史；</li>
          <li>可信时间戳为 RFC 3161 格式，可用 openssl ts -verify 核验。</li>
        </ul>
        <p>
          也可以在<a href={appUrl('/verify')}>证据包核验</a>
          页面逐项核验证据包：浏览器在本机核验，证据包不会上传；还可以下载
          <a href={appUrl('/verify/offline')} download="cunzheng-verify.html">
            离线核验工具
          </a>
          （单个 HTML 文件，断网也能用）。每一个被哈希和签名的字节的规范、完整示例及核验命令见平台源代码中的
          docs/verification.md；也可使用命令行工具 npm run verify 一次完成全部七个步骤。
        </p>
      </details>
      <details className="faq">
        <summary>我的个人信息如何被使用？如何注销账户？</summary>
        <p>
          我们收集和使用个人信息的范围、保存期限和您的权利见
          <Link to={LegalPaths.privacy}>《隐私政策》</Link>
          。注销账户或撤回授权请联系平台客服，我们将在15个工作日内答复。
        </p>
      </details>
      {contact ? (
        <p className="notice" data-testid="support-contact">
          客服：{contact}
        </p>
      ) : null}
    </section>
  );
}

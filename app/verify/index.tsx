/** /queryAuthentication: what each check does. */
import { Link } from 'react-router';

const CHECKS = [
  {
    to: 'safekeeping',
    title: '保全编号查验',
    text: '输入保全编号，查看该证据的保全时间、文件哈希和账本记录。',
  },
  {
    to: 'certificate',
    title: '文件核验',
    text: '选择文件或粘贴其SHA-256哈希值，查找保全过相同数据的证据。文件不会被保存。',
  },
  {
    to: 'keepSingle',
    title: '保全单核对',
    text: '同时提供保全编号和文件，核对手中的文件是否正是该证据保全的那一份。',
  },
  {
    to: 'electronicData',
    title: '账本记录查验',
    text: '输入链上交易哈希，查看账本记录、包含证明和签名树头。',
  },
  {
    to: 'notarial',
    title: '公证书核验',
    text: '输入公证书编号（可附公证书PDF的SHA-256），确认该公证书已出具、所涉证据，以及手中的文件是否为出具的那一份。',
  },
];

export default function VerifyIndex() {
  return (
    <div className="features">
      {CHECKS.map((c) => (
        <article key={c.to}>
          <h2>
            <Link to={c.to}>{c.title}</Link>
          </h2>
          <p>{c.text}</p>
        </article>
      ))}
    </div>
  );
}

/**
 * The platform's seal on the printed certificate (decision 029): a round red seal drawn as SVG — the operator's
 * name (PLATFORM_OPERATOR) along the upper arc, a star in the middle, 电子数据保全专用章 beneath — so it prints
 * sharp at any size and embeds in the PDF as vectors. The legal weight is the PDF's digital signature (decision
 * 029); the seal is its visible mark, as on paper certificates.
 */
export function Seal({ operator, english = false }: { operator: string; english?: boolean }) {
  const red = '#c8102e';
  // A five-pointed star of outer radius 22 around (80, 80).
  const star = Array.from({ length: 10 }, (_, i) => {
    const r = i % 2 === 0 ? 22 : 9;
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    return `${(80 + r * Math.cos(a)).toFixed(2)},${(80 + r * Math.sin(a)).toFixed(2)}`;
  }).join(' ');
  return (
    <svg
      className="seal"
      viewBox="0 0 160 160"
      width="120"
      height="120"
      role="img"
      aria-label={english ? `Seal of ${operator}` : `${operator}电子签章`}
    >
      <defs>
        <path id="seal-arc" d="M 28 80 A 52 52 0 1 1 132 80" />
      </defs>
      <circle cx="80" cy="80" r="74" fill="none" stroke={red} strokeWidth="5" />
      <polygon points={star} fill={red} />
      <text fill={red} fontSize="17" fontWeight="700" textAnchor="middle" lang="zh-CN">
        <textPath href="#seal-arc" startOffset="50%">
          {operator}
        </textPath>
      </text>
      <text x="80" y="128" fill={red} fontSize="11" textAnchor="middle" lang="zh-CN">
        电子数据保全专用章
      </text>
    </svg>
  );
}

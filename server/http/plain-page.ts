/**
 * The short Chinese pages the gateway writes itself, without the React Router document (an unknown evidence's PDF
 * link, a path outside BASE_PATH, a URL that is not UTF-8): one message and a link home. No I/O.
 */

/**
 * A page titled `title` (`title - 存证云`), with `heading` as its `<h1>` when given, `text` as its paragraph and a
 * link to the home page under `basePath` ('' or e.g. `/cunzheng`, server/http/base-path.ts). Texts are our constants:
 * nothing is escaped.
 */
export function plainPageHtml(page: {
  title: string;
  heading?: string;
  text: string;
  basePath: string;
}): string {
  const heading = page.heading ? `<h1>${page.heading}</h1>` : '';
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${page.title} - 存证云</title></head><body>${heading}<p>${page.text}</p><p><a href="${page.basePath}/">返回首页</a></p></body></html>`;
}

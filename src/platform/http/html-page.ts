// The service's few server-rendered pages (the OAuth sign-in page, the public pay page): one
// escaping and one document shell. No script and no outside asset in any of them; each page
// brings its own inline style and answers under its own Content-Security-Policy.

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** A whole page: `body` (already escaped HTML) in <main>, `style` inline. noindex: kept out of search engines. */
export function htmlPage(
  title: string,
  style: string,
  body: string,
  options: { noindex?: boolean } = {},
): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${options.noindex ? '<meta name="robots" content="noindex">\n' : ''}<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body><main>
${body}
</main></body>
</html>`;
}

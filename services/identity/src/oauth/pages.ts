/** The sign-in server's few HTML pages share one frame; no scripts from elsewhere, no styles from elsewhere. */
export const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#222}
label{display:block;margin:.75rem 0 .25rem}input{width:100%;padding:.5rem;box-sizing:border-box}
button{margin-top:1rem;padding:.5rem 1rem}.dev button{display:block;width:100%;text-align:left}
button.upstream{width:100%;font-weight:600}
.error{color:#a00}</style></head>
<body><h1>${title}</h1>${body}</body></html>`;

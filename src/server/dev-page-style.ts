/**
 * The look the portal's development pages share (the dev content site, the dev mailbox): the
 * page, its header bar and banner, headings and tables, as inline CSS (their CSP allows nothing
 * else). Each page adds its own rules for forms and the rest.
 */
export const devPageStyle = (maxWidth: string) => `
body{margin:0;background:#f5f5f5;color:#171717;font-family:system-ui,'Noto Sans TC',sans-serif;line-height:1.5}
header{background:#fff;border-top:6px solid #ff5e00;border-bottom:1px solid #e5e5e5}
.bar{max-width:${maxWidth};margin:0 auto;padding:.75rem 1rem;display:flex;gap:1rem;align-items:center;justify-content:space-between;flex-wrap:wrap}
.brand{font-weight:800;font-size:1.5rem;color:#171717;text-decoration:none}.brand span{color:#b23c00}
main{max-width:${maxWidth};margin:0 auto;padding:1rem}
h1{font-size:1.5rem;margin:.5rem 0 1rem}h2{font-size:1.125rem;margin:1.5rem 0 .5rem}
.banner{background:#fff4ed;border:1px solid #b23c00;color:#742b0a;padding:.5rem .75rem;border-radius:.25rem;font-size:.875rem}
table{border-collapse:collapse;width:100%;background:#fff}caption{text-align:left;font-weight:600;padding:.5rem 0}
th,td{text-align:left;padding:.5rem;border-bottom:1px solid #e5e5e5;vertical-align:top}th{font-size:.875rem;color:#404040}
.scroll{overflow-x:auto}
`;

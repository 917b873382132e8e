// The text the model reads for `fetch`. A reworded description changes model behaviour:
// description.test.ts snapshots it, so every change is reviewed on purpose. That fetched
// text is data, not instructions, the system prompt says once for every tool.
export const FETCH_DESCRIPTION = `Fetch a public http(s) URL and return its text, HTML as Markdown. Local and private addresses and binary content are refused; ports other than 80 and 443 need approval.`;

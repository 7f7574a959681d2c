/** AI drafts: the use cases the HTTP handlers and the MCP tools (generate_posts, plan_week) call. */
export { generateDrafts } from './generate';


export { planWeek } from './week';



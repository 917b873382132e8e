// An MCP server with many tools, for tool search: `node many-tools-server.ts [COUNT]` serves
// COUNT (default 60) report tools with long descriptions, plus `convert_celsius`, over stdio.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const count = Number(process.argv[2] ?? 60);
const server = new McpServer({ name: "xzatoma-many-tools", version: "1.0.0" });
const topics = ["sales", "inventory", "payroll", "shipping", "billing", "support"];
for (let index = 1; index <= count; index += 1) {
  const topic = topics[index % topics.length] ?? "sales";
  server.registerTool(
    `report_${topic}_${index}`,
    {
      description: `Builds report ${index} about ${topic}: totals per region, per month and per product line, with the changes against the previous period and notes on anything unusual.`,
      inputSchema: {
        region: z.string().describe("The region the report covers"),
        month: z.string().describe("The month, as YYYY-MM"),
      },
    },
    ({ region, month }) => ({
      content: [{ type: "text" as const, text: `report ${index} for ${region} ${month}` }],
    }),
  );
}
server.registerTool(
  "convert_celsius",
  {
    description: "Converts a temperature in degrees Celsius to Fahrenheit.",
    inputSchema: { celsius: z.number() },
  },
  ({ celsius }) => ({
    content: [{ type: "text" as const, text: `${celsius} °C is ${(celsius * 9) / 5 + 32} °F` }],
  }),
);
await server.connect(new StdioServerTransport());

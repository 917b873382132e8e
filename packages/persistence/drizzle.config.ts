// drizzle-kit reads this to generate the committed migrations in ./drizzle:
//   pnpm exec drizzle-kit generate
// The migrations are applied by openHistory() at runtime; nothing here touches a database.
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./src/schema/*.sql.ts",
  out: "./drizzle",
});

// The ordered list of migrations, imported as text so `deno compile` embeds them.
import m001 from "./001_core.sql" with { type: "text" };

export const migrations: { name: string; text: string }[] = [
  { name: "001_core.sql", text: m001 },
];

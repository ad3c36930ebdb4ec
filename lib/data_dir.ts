// DATA_DIR and the Deno permissions it needs. Run as a script, it prints the flags that grant
// them, for the deno tasks to splice in with $(...): the tasks then read and write whatever
// DATA_DIR names when they start (`deno task compile`: when the binary is built). Imported, it
// checks them, so that a missing permission stops the start with one line naming the variable.

/** The default of DATA_DIR (lib/config.ts reads the variable). */
export const DEFAULT_DATA_DIR = "./data";

/**
 * `--allow-read=DIR --allow-write=DIR` for the value of DATA_DIR, or only the second for a task
 * that may read anything already (a later --allow-read=DIR would narrow it); an Error for a
 * value a task cannot pass.
 */
export function dataDirFlags(value: string | undefined, writeOnly = false): string {
  const dir = value || DEFAULT_DATA_DIR;
  // A task splits the printed line into words, and Deno a flag's value at commas.
  if (/[\s,]/.test(dir)) {
    throw new Error(
      `DATA_DIR=${dir}: the deno tasks take a path without spaces or commas; ` +
        "use another path, or run deno run with your own --allow-read/--allow-write",
    );
  }
  return writeOnly ? `--allow-write=${dir}` : `--allow-read=${dir} --allow-write=${dir}`;
}

/** Thrown when this process may not use the data directory; the message is the whole line. */
export class DataDirError extends Error {}

/**
 * Refuses a data directory this process may not read and write, before anything is opened
 * there: deep inside the embedded database the same refusal would surface as a stack trace.
 */
export async function checkDataDir(dataDir: string): Promise<void> {
  for (const name of ["read", "write"] as const) {
    const { state } = await Deno.permissions.query({ name, path: dataDir });
    if (state !== "granted") {
      throw new DataDirError(
        `DATA_DIR=${dataDir}: this process may not ${name} ${dataDir}. The deno tasks allow ` +
          "the DATA_DIR set when they start; a binary from `deno task compile`, the one set " +
          `when it was built (DATA_DIR=${dataDir} deno task compile)`,
      );
    }
  }
}

/**
 * One line for an error met while opening the data directory: the operating system's refusal
 * names DATA_DIR (Deno's own permissions were checked before, by checkDataDir).
 */
export function describeDataDirError(dataDir: string, err: unknown): Error {
  if (err instanceof Deno.errors.PermissionDenied) {
    return new DataDirError(
      `DATA_DIR=${dataDir}: the operating system denies access (${err.message.split("\n")[0]})`,
    );
  }
  return err instanceof Error ? err : new Error(String(err));
}

if (import.meta.main) {
  try {
    console.log(dataDirFlags(Deno.env.get("DATA_DIR"), Deno.args[0] === "write"));
  } catch (err) {
    console.error((err as Error).message);
    Deno.exit(1);
  }
}

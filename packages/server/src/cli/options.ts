// Options shared by the client commands, declared once so every command spells a filter the same
// way: project, time window, app and environment, paging, and the value parsers behind them.
import { type Command, InvalidArgumentError, Option } from "commander";
import { timeWindowOf, type TimeWindow, type WindowFlags } from "./time-window.js";

/** Comma lists and repeated options both add items: `--method GET,POST` = `--method GET --method POST`. */
export function listValue(value: string, previous: readonly string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(",")
      .map((item) => item.trim())
      .filter((item) => item !== ""),
  ];
}

/** The API's comma-separated form of a list option, or undefined when not given. */
export const joined = (items: readonly string[] | undefined): string | undefined =>
  items === undefined || items.length === 0 ? undefined : items.join(",");

export function integerValue(min: number, max: number): (value: string) => number {
  return (value) => {
    const number = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(number) || number < min || number > max) {
      throw new InvalidArgumentError(`expected an integer from ${min} to ${max}.`);
    }
    return number;
  };
}

export function numberValue(min: number, max: number): (value: string) => number {
  return (value) => {
    const number = Number(value);
    if (value.trim() === "" || !Number.isFinite(number) || number < min || number > max) {
      throw new InvalidArgumentError(`expected a number from ${min} to ${max}.`);
    }
    return number;
  };
}

export interface ProjectFlags {
  readonly project?: string;
}

export function addProjectOption(command: Command): Command {
  return command.option(
    "-p, --project <slug>",
    "project slug (default: SIGHTLINE_PROJECT, else your only project)",
  );
}

export interface ScopeFlags extends WindowFlags {
  readonly app?: string[];
  readonly env?: string;
}

/** --app, --env and the window: `defaultWindow` says what no --since means for this route. */
export function addScopeOptions(command: Command, defaultWindow: string): Command {
  return command
    .option("--app <slugs>", "only these apps (comma-separated or repeated)", listValue)
    .option("--env <environment>", "only this environment")
    .option(
      "--since <when>",
      `start (or --from): a duration ago (1h, 6h, 24h, 7d, 30d…) or an ISO date-time (${defaultWindow})`,
    )
    .addOption(new Option("--from <when>", "same as --since").hideHelp())
    .option("--until <when>", "end (or --to): a duration ago or an ISO date-time (default: now)")
    .addOption(new Option("--to <when>", "same as --until").hideHelp());
}

export function scopeOf(flags: ScopeFlags): { app_slugs?: string; environment?: string } & TimeWindow {
  const appSlugs = joined(flags.app);
  return {
    ...(appSlugs === undefined ? {} : { app_slugs: appSlugs }),
    ...(flags.env === undefined ? {} : { environment: flags.env }),
    ...timeWindowOf(flags),
  };
}

export interface PagingFlags {
  readonly page?: number;
  readonly pageSize?: number;
}

export function addPagingOptions(command: Command, limits: { defaultPageSize: number; maxPageSize: number }) {
  return command
    .option("--page <n>", "page number, from 1", integerValue(1, 1_000_000))
    .option(
      "--page-size <n>",
      `rows per page (default ${limits.defaultPageSize}, at most ${limits.maxPageSize})`,
      integerValue(1, limits.maxPageSize),
    );
}

export function pagingOf(flags: PagingFlags): { page?: number; page_size?: number } {
  return {
    ...(flags.page === undefined ? {} : { page: flags.page }),
    ...(flags.pageSize === undefined ? {} : { page_size: flags.pageSize }),
  };
}

export interface SortFlags<K extends string> {
  readonly sort?: K;
  readonly order?: "asc" | "desc";
}

export function addSortOptions(command: Command, keys: readonly string[], fallback: string): Command {
  return command
    .addOption(new Option("--sort <key>", `sort by (default ${fallback})`).choices(keys))
    .addOption(new Option("--order <dir>", "sort direction").choices(["asc", "desc"]));
}

export function sortOf<K extends string>(flags: SortFlags<K>): { sort_by?: K; sort_dir?: "asc" | "desc" } {
  return {
    ...(flags.sort === undefined ? {} : { sort_by: flags.sort }),
    ...(flags.order === undefined ? {} : { sort_dir: flags.order }),
  };
}

/** Drops undefined members so a query carries only what the user asked for. */
export function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined)) as T;
}

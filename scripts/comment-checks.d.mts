export declare const CMARK_ARGS: readonly string[];
export declare function htmlProblems(body: string): { problems: string[]; tables: number; rowsIntact: boolean };

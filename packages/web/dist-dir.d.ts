/** Absolute path of the built dashboard (index.html and assets/), with a trailing slash. */
export declare const dashboardDistDir: string;

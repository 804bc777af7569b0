/**
 * The part of robots-parser this server uses. The package is CommonJS and its declaration file
 * describes an ES default export it does not have; Node hands an ES module `module.exports` (the
 * parser function) as the default import, which is what is typed here. tsconfig `paths` points the
 * compiler here; at run time, and in the bundle, `robots-parser` is the real package.
 */

/** The parsed rules of one robots.txt. */
export interface Robot {
  /** Whether `ua` may fetch `url`; `undefined` when `url` is not on the robots.txt's origin. */
  isAllowed(url: string, ua?: string): boolean | undefined;
}

/** Parses `contents`, the robots.txt fetched from `url`. */
export default function robotsParser(url: string, contents: string): Robot;

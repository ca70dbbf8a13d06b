export const CONSOLE_SETTINGS = Symbol('CONSOLE_SETTINGS');

export interface ConsoleSettings {
  /** The built console (Vite's output: index.html and assets/), served at /console. */
  dir: string;
}

// What the engine modules share.
import { sleep } from './processes.mjs';

// What every engine's page collects: console lines for the log file, and
// errors (console.error, uncaught exceptions) that fail a test.
export class ConsoleLog {
  constructor() {
    this.lines = [];
    this.errors = [];
  }
  message(type, text) {
    this.lines.push(`[${type}] ${text}`);
    if (type === 'error') this.errors.push(`console: ${text}`);
  }
  pageError(text) {
    this.lines.push(`[pageerror] ${text}`);
    this.errors.push(`page error: ${text}`);
  }
}

// keyboard.press(key, {delay}) with the hold timed from the press, as a
// finger's is. The drivers' own press starts the hold once the page has
// handled the keydown; a page busy drawing the frame that keydown woke then
// stretches every hold past that frame, and no quick tap ever happens.
export const pressFromDown = (keyboard) => async (key, { delay = 0 } = {}) => {
  const down = keyboard.down(key);
  await sleep(delay);
  await Promise.all([down, keyboard.up(key)]);
};

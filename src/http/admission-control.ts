/**
 * How much of the offered load a node lets in, steered by whether it is keeping up.
 *
 * The share admitted moves like TCP's congestion window (additive increase, multiplicative
 * decrease): every tick that finds the node behind cuts it by a quarter (at least a twentieth, so
 * it reaches none), every tick that finds it keeping up raises it by a fiftieth. Under a steady
 * overload it settles around what the node can serve in time; a single pause (a long commit, a
 * major collection) costs one cut, won back within a few ticks, instead of a whole sample of
 * refusing everything; and a node that is not behind admits everything.
 *
 * Requests are let in evenly, not at random: each adds the share to a credit and is admitted when
 * the credit reaches one, so at a half every other request is admitted.
 */
export class AdmissionControl {
  /** The share of requests admitted now, from 0 to 1. */
  #share = 1;
  #credit = 0;

  get share(): number {
    return this.#share;
  }

  /** Whether the node admits everything now. */
  get open(): boolean {
    return this.#share >= 1;
  }

  /** One tick's verdict: behind (its bound passed) or keeping up. */
  observe(behind: boolean): void {
    if (behind) this.#share = Math.max(0, this.#share - Math.max(MIN_CUT, this.#share * CUT));
    else this.#share = Math.min(1, this.#share + RAISE);
    if (this.#share >= 1) this.#credit = 0;
  }

  /** Whether to admit the request at hand. */
  admit(): boolean {
    if (this.#share >= 1) return true;
    this.#credit += this.#share;
    if (this.#credit < 1) return false;
    this.#credit -= 1;
    return true;
  }
}

/** Share taken away by a tick that finds the node behind: a quarter of it... */
const CUT = 0.25;
/** ...and at least this much, so a persisting overload reaches no admission at all. */
const MIN_CUT = 0.05;
/** Share given back by a tick that finds the node keeping up. */
const RAISE = 0.02;

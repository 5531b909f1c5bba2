// @ts-check
/**
 * Telling a player that the table waits for them, even in another tab: when their turn comes
 * and when 5 s are left on their clock, the tab's title changes ("● Your turn — Luddo", put
 * back once the turn is over), an optional beep sounds (WebAudio, off by default) and an
 * optional browser notification shows while the page is hidden (permission is asked only when
 * the player turns it on). The player's choices, and whether the single-key queries are on, are
 * kept in this browser (localStorage).
 */
import { t } from '../i18n.js';

const STORED = 'luddo.table-settings';

/**
 * @typedef {object} Settings
 * @property {boolean} sound a beep at the alerts
 * @property {boolean} notify a browser notification at the alerts while the page is hidden
 * @property {boolean} keys the single-key queries (WCAG 2.1.4: they can be turned off)
 */

/** The player's choices, as stored (sound and notifications off, keys on, by default). @returns {Settings} */
export function loadSettings() {
  /** @type {Partial<Settings>} */
  let stored = {};
  try {
    stored = JSON.parse(localStorage.getItem(STORED) ?? '{}') ?? {};
  } catch {
    // A value written by hand that does not parse: the defaults.
  }
  return { sound: stored.sound === true, notify: stored.notify === true, keys: stored.keys !== false };
}

/** @param {Settings} settings */
export function saveSettings(settings) {
  localStorage.setItem(STORED, JSON.stringify(settings));
}

/** The seconds left at which the player is told their clock runs out. */
export const LOW_SECONDS = 5;

export class TurnAlert {
  /** @param {Settings} settings */
  constructor(settings) {
    this.settings = settings;
    /** The page's own title, put back when the turn is over. */
    this.title = document.title;
    /** Whether the viewer was to act at the last update. */
    this.wasMyTurn = false;
    /** The deadline whose "5 s left" was given (one per turn). */
    this.lowFor = '';
    /** @type {AudioContext | null} made at the player's click that turned the sound on */
    this.audio = null;
  }

  /**
   * Called at every change of the table and every tick of the clock.
   * @param {boolean} myTurn @param {number | null} left seconds on the viewer's clock @param {string | null} deadline
   */
  update(myTurn, left, deadline) {
    if (myTurn && !this.wasMyTurn) this.alert(t('alert-your-turn'));
    else if (myTurn && left !== null && left <= LOW_SECONDS && deadline && this.lowFor !== deadline) {
      this.lowFor = deadline;
      this.alert(t('alert-time-low', { seconds: left }));
    } else if (!myTurn && this.wasMyTurn) document.title = this.title;
    if (myTurn && left !== null && left <= LOW_SECONDS && deadline) this.lowFor = deadline;
    this.wasMyTurn = myTurn;
  }

  /** @param {string} what */
  alert(what) {
    document.title = t('alert-title', { what, title: this.title });
    if (this.settings.sound) this.beep();
    if (this.settings.notify && document.visibilityState === 'hidden' && 'Notification' in window && Notification.permission === 'granted') {
      new Notification(what, { body: this.title, tag: 'luddo-turn' });
    }
  }

  /** A short beep (two tones). */
  beep() {
    const audio = this.audio;
    if (!audio) return;
    if (audio.state === 'suspended') audio.resume().catch(() => {});
    const now = audio.currentTime;
    for (const [offset, frequency] of [[0, 660], [0.16, 880]]) {
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, now + offset);
      gain.gain.exponentialRampToValueAtTime(0.2, now + offset + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + offset + 0.14);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(now + offset);
      oscillator.stop(now + offset + 0.15);
    }
  }

  /**
   * The player turned the sound on or off (at a click: a browser lets audio start only then).
   * @param {boolean} on
   */
  setSound(on) {
    this.settings.sound = on;
    if (on && !this.audio && 'AudioContext' in window) this.audio = new AudioContext();
    if (on) this.beep();
    saveSettings(this.settings);
  }

  /**
   * The player turned notifications on (permission is asked now, never before) or off; answers
   * whether they are on.
   * @param {boolean} on
   */
  async setNotify(on) {
    if (on && 'Notification' in window && Notification.permission !== 'granted') {
      on = (await Notification.requestPermission()) === 'granted';
    }
    this.settings.notify = on && 'Notification' in window;
    saveSettings(this.settings);
    return this.settings.notify;
  }

  /** A click or a key of the player: audio may start now (browsers allow it only then), if the sound is on. */
  unlock() {
    if (this.settings.sound && !this.audio && 'AudioContext' in window) this.audio = new AudioContext();
  }

  /** The page is left: its title back. */
  stop() {
    document.title = this.title;
  }
}

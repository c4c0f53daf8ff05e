import { describe, expect, it } from 'vitest';
import { AdmissionControl } from './admission-control.js';

const admittedOf = (control: AdmissionControl, requests: number) => {
  let admitted = 0;
  for (let i = 0; i < requests; i++) if (control.admit()) admitted++;
  return admitted;
};

describe('admission control', () => {
  it('admits everything while the node keeps up', () => {
    const control = new AdmissionControl();
    for (let tick = 0; tick < 5; tick++) control.observe(false);
    expect(control.open).toBe(true);
    expect(admittedOf(control, 100)).toBe(100);
  });

  it('cuts the share by a quarter for a tick that finds the node behind', () => {
    const control = new AdmissionControl();
    control.observe(true);
    expect(control.share).toBeCloseTo(0.75);
    expect(control.open).toBe(false);
    control.observe(true);
    expect(control.share).toBeCloseTo(0.5625);
  });

  it('reaches no admission at all while the node stays behind', () => {
    const control = new AdmissionControl();
    let ticks = 0;
    while (control.share > 0 && ticks < 100) {
      control.observe(true);
      ticks++;
    }
    expect(control.share).toBe(0);
    expect(ticks).toBeLessThanOrEqual(12);
    expect(admittedOf(control, 100)).toBe(0);
  });

  it('lets requests in evenly at the share, not in bursts', () => {
    const control = new AdmissionControl();
    control.observe(true);
    control.observe(true);
    for (let tick = 0; tick < 10; tick++) control.observe(false);
    // 1 → 0.75 → 0.5625, then + 10 × 0.02
    expect(control.share).toBeCloseTo(0.7625);
    const admitted = admittedOf(control, 1_000);
    expect(admitted).toBeGreaterThanOrEqual(762);
    expect(admitted).toBeLessThanOrEqual(763);
    const half = new AdmissionControl();
    for (let i = 0; i < 3; i++) half.observe(true); // 0.421875
    for (let i = 0; i < 5; i++) half.observe(false); // 0.521875
    const pattern = Array.from({ length: 20 }, () => half.admit());
    // Never two refusals in a row at a share above one half.
    for (let i = 1; i < pattern.length; i++) expect(pattern[i - 1] || pattern[i]).toBe(true);
  });

  it('wins the share back a fiftieth a tick once the node keeps up', () => {
    const control = new AdmissionControl();
    while (control.share > 0) control.observe(true);
    for (let tick = 0; tick < 49; tick++) control.observe(false);
    expect(control.open).toBe(false);
    control.observe(false);
    expect(control.open).toBe(true);
    expect(admittedOf(control, 10)).toBe(10);
  });
});

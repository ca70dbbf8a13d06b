import { RestoreWatch } from '../../../src/eventsourcing/restore-watch';

describe('RestoreWatch', () => {
  const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

  it('marks nothing changed while no restore is seen', () => {
    const watch = new RestoreWatch(async () => false, 1);
    const mark = watch.mark();
    watch.observe(false);
    expect(watch.changedSince(mark)).toBe(false);
    watch.stop();
  });

  it('counts a restore under way when the mark was taken', () => {
    const watch = new RestoreWatch(async () => true, 1);
    watch.begun();
    const mark = watch.mark();
    expect(mark.restoring).toBe(true);
    expect(watch.changedSince(mark)).toBe(true);
    watch.stop();
  });

  it('counts a restore that began and ended after the mark was taken', async () => {
    let restoring = true;
    const watch = new RestoreWatch(async () => restoring, 1);
    const mark = watch.mark();
    watch.begun();
    restoring = false;
    while (watch.mark().restoring) await settle(); // the watcher's check sees the end
    expect(watch.changedSince(mark)).toBe(true);
    expect(watch.changedSince(watch.mark())).toBe(false);
    watch.stop();
  });

  it('keeps believing in a restore while its check fails (the store is unreachable)', async () => {
    let calls = 0;
    const watch = new RestoreWatch(async () => {
      calls += 1;
      throw new Error('redis away');
    }, 1);
    watch.begun();
    while (calls < 3) await settle();
    expect(watch.mark().restoring).toBe(true);
    watch.stop();
  });

  it('names what showed the restore beginning, the first sign while one is under way', () => {
    const watch = new RestoreWatch(async () => true, 1000);
    expect(watch.cause).toBe('none');
    watch.begun('resumed from no checkpoint');
    watch.begun('the shared checkpoint went back');
    expect(watch.cause).toBe('resumed from no checkpoint');
    watch.stop();
  });
});

/**
 * The certificate view of app-captured evidence on the platform, on SQLite and PostgreSQL (spec 01 §2.3, §3;
 * decision 006): isApp, the device fields and their certificate rows.
 */
import { beforeAll, expect, it } from 'vitest';
import { type EvidenceListData, EvidencePaths } from '../../contract/evidence.ts';
import { evidenceCalls, evidenceUsers, PNG } from '../../tests/support/evidence.ts';
import { forEachDialect, get } from '../../tests/support/platform.ts';

forEachDialect('evidence certificate', (h) => {
  let demo: string;
  beforeAll(async () => {
    ({ demo } = await evidenceUsers(h));
  });
  const { view, saveFile } = evidenceCalls(h);

  it('app-captured evidence: isApp, device fields and the certificate rows (no creation call yet)', async () => {
    const s = await saveFile(demo, PNG, 'screen.png');
    await h.app.pdb.db
      .updateTable('evidences')
      .set({
        kind: 'app',
        app_type: '屏幕录制',
        config_name: '张三的手机',
        config_model_name: 'Mate 60',
        config_version: 'HarmonyOS 4.0',
        config_processor: 'Kirin 9000S',
        config_core: 'Linux 5.10',
      })
      .where('id', '=', s.id)
      .execute();
    const v = await view(s.baoquan);
    expect(v.data).toMatchObject({
      kind: 'app',
      isApp: 1,
      appType: '屏幕录制',
      configName: '张三的手机',
      configModelName: 'Mate 60',
      configVersion: 'HarmonyOS 4.0',
      configProcessor: 'Kirin 9000S',
      configCore: 'Linux 5.10',
      isDownload: 1,
    });
    for (const text of [
      '取证类型',
      '屏幕录制',
      '设备名称',
      '设备型号',
      'Mate 60',
      '系统版本',
      '处理器',
      '内核',
    ]) {
      expect(v.data.html).toContain(text);
    }
    // listed with the files
    const list = await get<EvidenceListData>(h.app, EvidencePaths.list, { limit: 100 }, demo);
    expect(list.data.list.find((x) => x.id === s.id)?.kind).toBe('app');
  });
});

// 各图共用的中文文案；每个图自己的文案在它的模块里（NlName.strings）。
// 只作为纯文本使用，从不当作 HTML 解析。
export default {
  common: {
    badChoice: '{name} 必须是 {choices} 之一（收到的是“{value}”）。',
    badVector: '{name} 需要 {length} 个以逗号分隔的数（收到的是“{value}”）。',
    badNumber: '{name} 必须是 {min} 到 {max} 之间的数（收到的是“{value}”）。',
    inputWhole: '{label} 只能取 {min} 到 {max} 之间的整数。',
    inputRange: '{label} 只能取 {min} 到 {max} 之间的数。',
    tooLong: '此图中 {name} 最多接受 {max} 个数。',
    coreError: '计算核心无法完成这一步：{message}',
    error_zero_spread: '{op}：某一组的值全部相等且 eps 为 0，分母为零。请把 eps 设为正数或改动一个值。',
    error_not_divisible: '{op}：{argument} 必须整除通道数。',
    error_not_finite: '{op}：{argument} 中有不是有限数的值。',
    error_out_of_range: '{op}：{argument} 超出了允许的范围。',
    error_overflow: '{op}：结果超出了 32 位浮点数的范围。',
    error_zero_vector: '{op}：零向量没有方向，无法归一化。',
    error_too_large: '{op}：超出了计算核心单次调用的上限。',
    error_bad_shape: '{op}：{argument} 的形状不符合这个运算的要求。',
    loading: '正在加载图…',
    loadFailed: '图无法启动：计算核心未能加载（{reason}）。',
  },
};

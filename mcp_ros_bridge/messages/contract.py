"""Texts of invalid-argument errors (``contract/errors.py``, ``contract/validation.py``)."""

from mcp_ros_bridge.messages.table import both

TABLE: dict[str, tuple[str, str]] = {
    # What a JSON value is ("got a string").
    'json_boolean': both('a boolean', '布尔值'),
    'json_number': both('a number', '数字'),
    'json_string': both('a string', '字符串'),
    'json_array': both('an array', '数组'),
    'json_object': both('an object', '对象'),
    # What a schema allows; the parts are joined with allowed_join.
    'allowed_join': both(' ', ' '),
    'allowed_one_of': both('one of {values}', '取值之一：{values}'),
    'allowed_exactly': both('exactly {value}', '恰好为 {value}'),
    'allowed_type_integer': both('an integer', '整数'),
    'allowed_type_number': both('a number', '数字'),
    'allowed_type_string': both('a string', '字符串'),
    'allowed_type_boolean': both('a boolean', '布尔值'),
    'allowed_type_array': both('an array', '数组'),
    'allowed_type_object': both('an object', '对象'),
    'allowed_type_null': both('a null', 'null'),
    'allowed_types_or': both(' or ', ' 或 '),
    'allowed_range': both('in {left}{lo}, {hi}{right}', '在 {left}{lo}, {hi}{right} 内'),
    'allowed_unit': both('({unit})', '({unit})'),
    'allowed_min_items': both('at least {n} items', '至少 {n} 项'),
    'allowed_max_items': both('at most {n} items', '至多 {n} 项'),
    'allowed_min_length': both('at least {n} characters', '至少 {n} 个字符'),
    'allowed_max_length': both('at most {n} characters', '至多 {n} 个字符'),
    'allowed_pattern': both('matching {n}', '匹配 {n}'),
    'allowed_each': both('each {allowed}', '每项为{allowed}'),
    'allowed_unique': both('with no repeated items', '且各项不重复'),
    'allowed_keys': both('with keys {keys}', '键为 {keys}'),
    'allowed_anything': both('a value matching the schema', '符合模式的值'),
    # One line per problem.
    'wrong_at': both(
        '{name}: {message}. {where} must be {allowed}.',
        '{name}：{message}。{where} 必须是{allowed}。'),
    'wrong_type': both(
        '{name} must be {allowed}, got {got}{shown}.{hint}',
        '{name} 必须是{allowed}，收到的是{got}{shown}。{hint}'),
    'hint_null_number': both(
        ' NaN and infinities arrive as null in JSON; send a finite number.',
        'NaN 和无穷大在 JSON 中变成 null；请发送有限数字。'),
    'hint_bare_number': both(
        ' Send the bare JSON number {number} (no quotes, no unit); {meaning}.',
        '请发送不带引号和单位的 JSON 数字 {number}；{meaning}。'),
    'unit_ratio': both('it is a plain ratio without unit', '它是无单位的比值'),
    'unit_is': both('the unit is {unit}', '单位是 {unit}'),
    'unit_fixed': both('the unit is fixed by the tool', '单位由工具规定'),
    'hint_boolean_number': both(' Booleans are not numbers here.', '这里布尔值不是数字。'),
    'wrong_keys': both(
        '{name}: {message}. Allowed keys: {known}.',
        '{name}：{message}。允许的键：{known}。'),
    'keys_none': both('none', '无'),
    'wrong_required': both('{name}: {message}.{need}', '{name}：{message}。{need}'),
    'need_field': both(' {name} must be {allowed}.', '{name} 必须是{allowed}。'),
    'wrong_plain': both('{name}: {message}.', '{name}：{message}。'),
    'wrong_value': both(
        '{name} is {shown}, but it must be {allowed}.',
        '{name} 是 {shown}，但必须是{allowed}。'),
    # Problems found before the schema (contract/validation.py) and jsonschema's own.
    'problem_depth': both('nesting deeper than {depth} levels', '嵌套超过 {depth} 层'),
    'problem_not_finite': both('{value} is not a finite number', '{value} 不是有限数字'),
    'problem_too_long': both(
        'string of {length} characters is longer than {limit}',
        '字符串有 {length} 个字符，超过 {limit}'),
    'problem_key_type': both('key {key} is not a string', '键 {key} 不是字符串'),
    'problem_too_deep': both('arguments are nested too deeply', '参数嵌套太深'),
    'problem_required': both('{key} is a required property', '缺少必需的键 {key}'),
    'problem_unexpected': both(
        'Additional properties are not allowed ({keys} {verb} unexpected)',
        '不允许的键 {keys}{verb}'),
    'verb_was': both('was', ''),
    'verb_were': both('were', ''),
    # The whole error.
    'invalid_header': both(
        'Invalid arguments for {tool}; nothing was executed.',
        '{tool} 的参数无效；没有执行任何操作。'),
    'valid_example': both('Valid example: {tool}({example})', '有效示例：{tool}({example})'),
    'corrected_returns': both('A corrected call returns {returns}.', '改正后的调用返回{returns}。'),
    'not_an_object': both(
        'Invalid arguments for {tool}: arguments must be a JSON object, got {got}; nothing was '
        'executed.',
        '{tool} 的参数无效：参数必须是 JSON 对象，收到的是{got}；没有执行任何操作。'),
}

"""Texts about which robot a backend can drive."""

from mcp_ros_bridge.messages.table import both

TABLE: dict[str, tuple[str, str]] = {
    # backends/sim/backend.py: the embedded simulation's one arm.
    'sim_other_arm': both(
        'the embedded simulation models the Franka Panda ({sim_count} joints {sim_first} .. '
        '{sim_last}) or an arm robot.yaml describes; this config describes {robot}, whose arm '
        'has {count} joints ({first} .. {last}), without a description',
        '内置仿真模拟 Franka Panda（{sim_count} 个关节 {sim_first} .. {sim_last}）或 robot.yaml '
        '所描述的机械臂；此配置描述的是 {robot}，其机械臂有 {count} 个关节（{first} .. {last}），'
        '但没有 description'),
    'sim_other_arm_fix': both(
        'add description: {{urdf: FILE, srdf: FILE}} to robot.yaml (mcp-ros-bridge init '
        '--urdf FILE writes it) to simulate this arm, or serve it with --backend ros beside '
        'its MoveIt',
        '在 robot.yaml 中加入 description: {{urdf: FILE, srdf: FILE}}（mcp-ros-bridge init '
        '--urdf FILE 会写入）以仿真该机械臂，或在其 MoveIt 旁用 --backend ros 运行'),
    # backends/sim/urdf_world.py: a description the simulation cannot build.
    'sim_urdf_mesh': both(
        'the simulation cannot build {robot}: the collision mesh {mesh} of link {link} is '
        '{ext}, which it cannot load (it reads {formats})',
        '仿真无法构建 {robot}：连杆 {link} 的碰撞网格 {mesh} 是 {ext}，仿真无法加载（支持 '
        '{formats}）'),
    # backends/sim/collada_mesh.py: a COLLADA collision mesh it could not convert.
    'sim_dae_no_converter': both(
        'the simulation cannot build {robot}: the collision mesh {mesh} of link {link} is '
        'COLLADA (.dae), and converting it needs trimesh and pycollada, which are not installed',
        '仿真无法构建 {robot}：连杆 {link} 的碰撞网格 {mesh} 是 COLLADA（.dae），转换它需要 '
        'trimesh 和 pycollada，但未安装'),
    'sim_dae_no_converter_fix': both(
        'pip install "mcp_ros_bridge[sim]" (or trimesh pycollada), or give link {link} an .stl '
        'collision mesh, or serve with --backend ros',
        '运行 pip install "mcp_ros_bridge[sim]"（或 trimesh pycollada），或为连杆 {link} 提供 .stl '
        '碰撞网格，或用 --backend ros 运行'),
    'sim_dae_unreadable': both(
        'the simulation cannot build {robot}: the COLLADA collision mesh {mesh} of link {link} '
        'could not be read ({error})',
        '仿真无法构建 {robot}：无法读取连杆 {link} 的 COLLADA 碰撞网格 {mesh}（{error}）'),
    'sim_dae_unreadable_fix': both(
        'give link {link} a <collision> with a primitive (box, cylinder, sphere) or an .stl '
        'mesh, or serve with --backend ros',
        '为连杆 {link} 提供一个基本形状（box、cylinder、sphere）或 .stl 网格的 <collision>，'
        '或用 --backend ros 运行'),
    'sim_dae_large': both(
        'the simulation cannot build {robot}: the COLLADA collision mesh {mesh} of link {link} '
        'is over {mb} MB',
        '仿真无法构建 {robot}：连杆 {link} 的 COLLADA 碰撞网格 {mesh} 超过 {mb} MB'),
    'sim_dae_large_fix': both(
        'simplify the mesh of link {link} (a collision mesh needs few triangles) or give it a '
        'primitive shape',
        '请简化连杆 {link} 的网格（碰撞网格只需少量三角形），或改用基本形状'),
    'sim_urdf_mesh_fix': both(
        'give link {link} a <collision> with a primitive (box, cylinder, sphere) or an .stl '
        'mesh (convert it, e.g. with meshlab or trimesh), or serve with --backend ros',
        '为连杆 {link} 提供一个基本形状（box、cylinder、sphere）或 .stl 网格的 <collision>'
        '（可用 meshlab 或 trimesh 转换），或用 --backend ros 运行'),
    'sim_urdf_mesh_missing': both(
        'the simulation cannot build {robot}: the collision mesh of link {link}, {mesh}, '
        'does not exist',
        '仿真无法构建 {robot}：连杆 {link} 的碰撞网格 {mesh} 不存在'),
    'sim_urdf_mesh_missing_fix': both(
        'correct the mesh filename in the URDF (relative paths start at the directory of '
        'the URDF)',
        '请更正 URDF 中的网格文件名（相对路径从 URDF 所在目录起算）'),
    'sim_urdf_mesh_outside': both(
        'the simulation cannot build {robot}: the collision mesh of link {link}, {mesh}, lies '
        'outside the description ({root}); meshes are read from the description only',
        '仿真无法构建 {robot}：连杆 {link} 的碰撞网格 {mesh} 位于描述目录（{root}）之外；'
        '只从描述目录读取网格'),
    'sim_urdf_mesh_outside_fix': both(
        'copy the mesh into the description and name it with package://PACKAGE/... or a path '
        'relative to the URDF',
        '请把网格复制到描述目录中，并用 package://PACKAGE/... 或相对 URDF 的路径引用'),
    'sim_urdf_package': both(
        'the simulation cannot build {robot}: no directory of package {package} (for mesh '
        '{mesh} of link {link}) at or above the directory of the URDF',
        '仿真无法构建 {robot}：在 URDF 所在目录及其上级中找不到包 {package} 的目录（连杆 {link} '
        '的网格 {mesh}）'),
    'sim_urdf_package_fix': both(
        'keep the URDF inside its package {package}, or write the mesh paths relative to the '
        'URDF',
        '请把 URDF 放在其包 {package} 内，或把网格路径写成相对 URDF 的路径'),
    'sim_urdf_compile': both(
        'the simulation cannot build {robot}: MuJoCo refused its URDF: {error}',
        '仿真无法构建 {robot}：MuJoCo 拒绝了其 URDF：{error}'),
    'sim_urdf_compile_fix': both(
        'correct the URDF element named above, or serve with --backend ros',
        '请更正上面指出的 URDF 元素，或用 --backend ros 运行'),
    'sim_home_collides': both(
        'the simulation cannot start {robot}: its home posture [{home}] puts it into the scene '
        '({contacts})',
        '仿真无法启动 {robot}：其 home 姿态 [{home}] 使其与场景相撞（{contacts}）'),
    'sim_home_collides_fix': both(
        'set joints.postures.home in robot.yaml to a posture clear of the table (z = 0 is its '
        'top, the base stands on it), e.g. the arm raised with the fingers down',
        '请把 robot.yaml 中的 joints.postures.home 设为不碰桌面的姿态（桌面为 z = 0，基座立于其上），'
        '例如机械臂抬起、手指向下'),
    'sim_objects_out_of_reach': both(
        'the simulation cannot lay out the objects of {robot}: its TCP reaches fingers down '
        '{above} m above the {box} at none of x, y = {spots} (m, base frame)',
        '仿真无法为 {robot} 摆放物体：在 x, y = {spots}（米，基座坐标系）处，其 TCP 都无法手指向下'
        '到达 {box} 上方 {above} 米'),
    'sim_objects_out_of_reach_fix': both(
        'set objects.{box}.start_xy_m in robot.yaml to a spot on the table the arm reaches '
        'fingers down, e.g. start_xy_m: [0.25, 0.0] (m, base frame), or lower '
        'gripper.approach_m',
        '请在 robot.yaml 中把 objects.{box}.start_xy_m 设为机械臂能手指向下到达的桌面位置，'
        '例如 start_xy_m: [0.25, 0.0]（米，基座坐标系），或减小 gripper.approach_m'),
    'sim_urdf_tcp': both(
        'the simulation cannot build {robot}: ros.tcp.parent_link {link} is no link of the '
        'arm up to its tip',
        '仿真无法构建 {robot}：ros.tcp.parent_link {link} 不是机械臂（到末端为止）的连杆'),
    'sim_urdf_tcp_fix': both(
        'set ros.tcp.parent_link to the tip link or a link above it',
        '请把 ros.tcp.parent_link 设为末端连杆或其上方的连杆'),
    # cli.py: `mcp-ros-bridge init --from-robot`, from the topics a running robot publishes.
    'init_live_read': both(
        'read {topic} ({chars} characters) into {path}',
        '已从 {topic} 读取（{chars} 个字符）并写入 {path}'),
    'init_live_no_urdf': both(
        'nothing arrived on {topic} within {wait} s: is robot_state_publisher (or MoveIt) '
        'running in this ROS_DOMAIN_ID? Nothing was written; start it, or pass --urdf FILE',
        '{wait} 秒内 {topic} 上没有收到任何消息：robot_state_publisher（或 MoveIt）是否在此 '
        'ROS_DOMAIN_ID 中运行？未写入任何文件；请启动它，或传入 --urdf FILE'),
    'init_live_no_srdf': both(
        'nothing arrived on {topic} (no MoveIt move_group?): no SRDF was '
        'written, so the planning group and the named postures are guesses (CHECK)',
        '{topic} 上没有收到任何消息（没有 MoveIt move_group？）：未写入 SRDF，'
        '规划组和命名姿态均为推测（CHECK）'),
    'init_live_needs_source': both(
        'init needs --urdf FILE or --from-robot',
        'init 需要 --urdf FILE 或 --from-robot'),
    # catalog/arm_chains.py, arm_model.py: which chain of the description is the arm.
    'init_several_arms': both(
        '{robot} has {count} candidate arms, init does not guess: {arms}; choose one with '
        '{how}',
        '{robot} 有 {count} 条候选机械臂链，init 不做猜测：{arms}；请用 {how} 选择其一'),
    'init_no_arm': both(
        '{robot} has no chain of movable joints outside its hands and wheels: give the arm '
        'with --base LINK --tip LINK',
        '{robot} 除手和轮子外没有可动关节链：请用 --base LINK --tip LINK 指定机械臂'),
    'init_no_joint_to_tip': both(
        'no movable joint from {base} down to {tip}: give a tip link below the arm joints '
        '(--tip LINK) and a base above them (--base LINK)',
        '从 {base} 到 {tip} 没有可动关节：请给出位于机械臂关节下方的末端连杆（--tip LINK）'
        '和其上方的基座连杆（--base LINK）'),
}

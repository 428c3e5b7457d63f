"""Interface languages: English (the source strings) and Simplified Chinese, switchable at run time.

Every user-visible string of the window goes through :func:`tr`, written in English::

    label.setText(tr("Side to move"))
    status.showMessage(tr("Illegal move: {reason}").format(reason=reason))

``tr`` returns the string in the current language (the English text itself when the table has no
entry, so an untranslated string degrades to English, never to nothing). Widgets that stay on screen
call :func:`follow_language` with a ``retranslate()`` method that sets their texts again;
:func:`set_language` switches the language and emits ``language_changed`` once. (Connecting a
lambda to ``language_changed`` directly would outlive the widget and call into a deleted one.)

The table is a plain typed dictionary rather than Qt Linguist files: the strings are few, the table
is checked by the tests (every ``tr("...")`` literal in the window's modules has an entry), and no
build step is needed. Chinese text needs a CJK-capable font: the board view's font loader provides
one on machines with none installed.
"""
from __future__ import annotations

import enum
import inspect
import re
import weakref
from typing import Callable, Final

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QObject, QTranslator, Signal

from xqdesk.pieces import Color, side_name


class Language(enum.Enum):
    """A language of the interface; the value is its QLocale-style name, used in settings."""

    ENGLISH = "en"
    CHINESE = "zh_CN"

    @classmethod
    def from_name(cls, name: str) -> "Language":
        """The language named ``name`` ('en', 'zh_CN'; 'zh' and 'zh-CN' accepted too)."""
        normalised = name.strip().replace("-", "_")
        for language in cls:
            if language.value.lower() == normalised.lower():
                return language
        if normalised.lower().startswith("zh"):
            return cls.CHINESE
        if normalised.lower().startswith("en"):
            return cls.ENGLISH
        raise ValueError(f"unknown interface language {name!r}; known: {[lang.value for lang in cls]}")

    @property
    def native_name(self) -> str:
        """The language's name in itself, for a language menu."""
        return {Language.ENGLISH: "English", Language.CHINESE: "简体中文"}[self]


#: Simplified Chinese for every English source string of the interface.
CHINESE: Final[dict[str, str]] = {
    # --- application, menus and actions -------------------------------------------------------
    "xqdesk": "xqdesk 象棋",
    "&File": "文件(&F)",
    "&Edit": "编辑(&E)",
    "&Game": "对局(&G)",
    "&View": "视图(&V)",
    "&Language": "语言(&L)",
    "New game": "新对局",
    "New game from this position": "从此局面开始新对局",
    "Open…": "打开…",
    "Open match folder…": "打开比赛文件夹…",
    "Save": "保存",
    "Save as…": "另存为…",
    "Recent files": "最近文件",
    "Quit": "退出",
    "Copy FEN": "复制 FEN",
    "Paste FEN": "粘贴 FEN",
    "Copy moves": "复制着法",
    "Paste moves": "粘贴着法",
    "Paste game": "粘贴棋谱",
    "clipboard": "剪贴板",
    "Could not paste a game: {reason}": "无法粘贴棋谱：{reason}",
    "Pasted {count} games ({format})": "已粘贴 {count} 局（{format}）",
    "Edit position…": "编辑局面…",
    "Tablebase directory…": "残局库目录…",
    "Choose the tablebase directory": "选择残局库目录",
    "Tablebase": "残局库",
    "Red wins, mate in {plies}": "红胜，{plies} 步（半回合）杀",
    "Black wins, mate in {plies}": "黑胜，{plies} 步（半回合）杀",
    "(the 120-ply rule may draw it first)": "（六十回合不吃子的规则可能先判和）",
    "draw": "和",
    "mates in {plies}": "{plies} 步杀",
    "is mated in {plies}": "{plies} 步被杀",
    "No such tablebase directory: {path}": "残局库目录不存在：{path}",
    "Not in the tablebase (needs {signature})": "残局库未收录（需要 {signature}）",
    "Tablebase error: {reason}": "残局库错误：{reason}",
    "Take back": "悔棋",
    "Hint": "提示",
    # --- whole-game review ----------------------------------------------------------------------
    "Review game…": "复盘分析…",
    "Cancel review": "取消复盘",
    "Preparing {engine} for this computer (first start only)": "正在为本机准备{engine}（仅首次启动）",
    "about {seconds} s left": "约剩 {seconds} 秒",
    "{engine} is ready.": "{engine}已就绪。",
    "Could not prepare {engine} ahead: {reason}": "未能预先准备{engine}：{reason}",
    "the built-in engine": "内置引擎",
    "the tablebase solver": "残局库求解器",
    "Preparing the tablebase solver…": "正在准备残局库求解器…",
    "the {name} engine": "{name} 引擎",
    "Next mistake": "下一个错着",
    "Seconds per move": "每步秒数",
    "Depth per move": "每步深度",
    "Both sides": "双方",
    "Review": "复盘",
    "Reviewing: %v / %m positions": "复盘中：%v / %m 个局面",
    "Review failed: {reason}": "复盘失败：{reason}",
    "Review cancelled": "复盘已取消",
    "The game changed during the review: its result was not stored": "复盘期间对局已改变：结果未保存",
    "Review done: {count} marked moves": "复盘完成：标出 {count} 步",
    "No marked moves": "没有标出的着法",
    "Better: {move}": "更好：{move}",
    "Resign": "认输",
    "Flip board": "翻转棋盘",
    "First move": "第一步",
    "Previous move": "上一步",
    "Next move": "下一步",
    "Last move": "最后一步",
    "Play through": "自动播放",
    "Play Red against the engine": "执红对引擎",
    "Play Black against the engine": "执黑对引擎",
    "Stop analysis": "停止分析",
    "Not your move now: {side} is played by an engine or a replay": "现在不轮到你走：{side}由引擎或复盘控制",
    "no game in it": "其中没有对局",
    "Manage engines…": "管理引擎…",
    "Analysis engines": "分析引擎",
    "Analysis engines…": "分析引擎…",
    "Language": "语言",
    # --- the window for daily use: engines, files, messages, themes, sounds -------------------
    "Refused {path}: {reason}": "已拒绝 {path}：{reason}",
    "no reason given": "未说明原因",
    "Press when the engine starts": "引擎启动时按下",
    "no piece on the from-square": "起点没有棋子",
    "that piece belongs to the side not to move": "这个棋子不属于走棋的一方",
    "the target square holds a piece of the same side": "目标位置有己方棋子",
    "the piece cannot move that way": "这个棋子不能这样走",
    "the piece has given check three times running (perpetual check)": "这个棋子已连续将军三次（长将）",
    "it would leave the king in check or facing the other king": "走后己方将帅被将军或将帅照面",
    "not a legal move here": "此处不是合法着法",
    "You are looking at an earlier position: go to the last move (End) to play": "你正在查看之前的局面：转到最后一步（End）才能走棋",
    "Not your move now: {side} is played by an engine": "现在不轮到你走：{side}由引擎执棋",
    "No hint now: {side} is to move and is played by an engine": "现在不能提示：轮到{side}走，由引擎执棋",
    "No hint: the game is over in this position": "不能提示：此局面对局已结束",
    "Dismiss": "关闭",
    "The game is paused": "对局已暂停",
    "Game stopped": "对局已停止",
    "Pause": "暂停",
    "Resume": "继续",
    "Stop game": "停止对局",
    "Wooden board, carved pieces": "木纹棋盘，雕刻棋子",
    "Plain, high contrast": "素色高对比",
    "Traditional red and black pieces": "传统红黑棋子",
    "Board theme": "棋盘主题",
    "Mute sounds": "静音",
    "Engine panel": "引擎面板",
    "E&ngines": "引擎(&N)",
    "Plies": "步数",
    "Opening": "布局",
    "Event": "赛事",
    "Date": "日期",
    "All": "全部",
    "Match score: {first} {first_points} – {second_points} {second}": "比分：{first} {first_points} – {second_points} {second}",
    "{shown} of {total} games": "显示 {shown} / {total} 局",
    "Game list": "对局列表",
    "Reading {name}: {done} of {total} games": "正在读取 {name}：{done} / {total} 局",
    "PGN, Chinese notation": "PGN，中文记谱",
    "PGN, WXF notation": "PGN，WXF 记谱",
    "PGN, ICCS notation": "PGN，ICCS 记谱",
    "Course history": "课程历史记录",
    "FEN and moves": "FEN 与着法",
    "No file with several games is open": "没有打开包含多局的文件",
    "xqdesk cannot write {name} in its format. Save the game as another file?": "xqdesk 不能以原格式写入 {name}。另存为其他文件吗？",
    "The game on show is not one of the {count} games of {name}.": "当前棋局不是 {name} 的 {count} 局棋之一。",
    "xqdesk cannot save this game alone into {name}: {reason}.": "xqdesk 无法只把这一局存入 {name}：{reason}。",
    "Save the game as another file?": "另存为其他文件吗？",
    "Saved game {number} of {count} in {path}": "已保存 {path} 中 {count} 局的第 {number} 局",
    "The game has unsaved changes. Save them?": "对局有未保存的更改。要保存吗？",
    "no clock": "不计时",
    #@@WINDOW@@
    # --- modes, seats and players --------------------------------------------------------------
    "Mode": "模式",
    "Engine vs engine": "引擎对弈",
    "Person vs person": "双人对弈",
    "Analysis": "分析",
    "Replay": "复盘",
    "Red": "红方",
    "Black": "黑方",
    "Person": "棋手",
    "xqdesk builtin": "xqdesk 内置引擎",
    "Built-in level {level}": "内置引擎 {level} 级",
    "Engine": "引擎",
    "Player": "棋手",
    "Red to move": "红方走棋",
    "Black to move": "黑方走棋",
    "Delay between moves": "走子间隔",
    # --- board, moves and game state ----------------------------------------------------------
    "Moves": "着法",
    "Move": "着法",
    "Round": "回合",
    "Notation": "记谱法",
    "Chinese": "中文",
    "WXF": "WXF",
    "ICCS": "ICCS",
    "Result": "结果",
    "Reason": "原因",
    "Comment": "注释",
    "Illegal move: {reason}": "着法不合规则：{reason}",
    "Game over: {text}": "对局结束：{text}",
    "Draw": "和棋",
    "No result": "无结果",
    "Red wins": "红胜",
    "Black wins": "黑胜",
    "Round {number}": "第 {number} 轮",
    "{side}: {name}": "{side}：{name}",
    "{winner}: {reason}": "{winner}：{reason}",
    "default {value}": "默认 {value}",
    "Comment on this move": "本着注释",
    "Comment on the game": "对局注释",
    "Variations": "变着",
    "Variation (depth {depth})": "变着（第 {depth} 层）",
    "Back to main line": "回到主线",
    "Back to the parent line": "回到上一层",
    "End of the variation: {text}": "变着终局：{text}",
    "{move} (this line)": "{move}（本线）",
    "Red loses the game. Black wins!": "红方告负，黑胜！",
    "Black loses the game. Red wins!": "黑方告负，红胜！",
    "Red moves illegally, Black wins!": "红方走法违例，黑胜！",
    "Black moves illegally, Red wins!": "黑方走法违例，红胜！",
    "Red timeout, Black wins!": "红方超时，黑胜！",
    "Black timeout, Red wins!": "黑方超时，红胜！",
    "Both sides have not eaten in sixty rounds, draw!": "双方六十回合未吃子，和棋！",
    "Game aborted": "对局中止",
    "Red resigns, Black wins!": "红方认输，黑胜！",
    "Black resigns, Red wins!": "黑方认输，红胜！",
    "Red's general is captured, Black wins!": "红帅被吃，黑胜！",
    "Black's general is captured, Red wins!": "黑将被吃，红胜！",
    # --- clocks ------------------------------------------------------------------------------
    "Clock": "棋钟",
    "Red's clock": "红方用时",
    "Copy the line from here": "复制此后着法",
    "Promote the variation to the main line": "变着升为主线",
    "Delete the variation": "删除变着",
    "Cut the game from here": "删除此后着法",
    "Black's clock": "黑方用时",
    "Seconds a move ('10s'), game time plus increment ('15m+5s'), main time then byo-yomi ('20m|30s'), or 'none'":
        "每步限时（'10s'）、局时加每步加秒（'15m+5s'）、基本用时后读秒（'20m|30s'），或不限时（'none'）",
    "{seconds} s": "{seconds} 秒",
    # --- files --------------------------------------------------------------------------------
    "Game": "对局",
    "Games": "对局",
    "Open a game": "打开棋谱",
    "Save the game": "保存棋谱",
    "Game records": "棋谱文件",
    "All files": "所有文件",
    "Could not open {path}: {reason}": "无法打开 {path}：{reason}",
    "Could not save {path}: {reason}": "无法保存 {path}：{reason}",
    # --- engine panel ------------------------------------------------------------------------
    "Engines": "引擎",
    "Engine log": "引擎日志",
    "Depth": "深度",
    "Score": "评分",
    "Nodes": "节点数",
    "NPS": "每秒节点",
    "Time": "时间",
    "Principal variation": "主要变例",
    "Lines": "变例数",
    "Start": "开始",
    "Stop": "停止",
    "Score from": "评分视角",
    "Red's view": "红方视角",
    "Mover's view": "走子方视角",
    "(no engine)": "（无引擎）",
    "Thinking…": "思考中…",
    "Stopped": "已停止",
    "Starting…": "启动中…",
    "Ready": "就绪",
    "Engine failed: {reason}": "引擎出错：{reason}",
    "Score graph": "评分曲线",
    "Red ahead ↑": "红优 ↑",
    "Black ahead ↓": "黑优 ↓",
    "Second engine": "第二引擎",
    # --- engines dialog ----------------------------------------------------------------------
    "Engines dialog": "引擎管理",
    "Add course player…": "添加课程棋手…",
    "Add engine (UCI or UCCI)…": "添加引擎（UCI 或 UCCI）…",
    "Add built-in engine": "添加内置引擎",
    "Add MCTS engine": "添加蒙特卡洛树搜索引擎",
    "Add zero engine": "添加神经网络引擎",
    "Remove": "删除",
    "Name": "名称",
    "Kind": "类型",
    "Path": "路径",
    "Level": "等级",
    "Options": "选项",
    "Value": "值",
    "Course player": "课程棋手",
    "UCI engine": "UCI 引擎",
    "UCCI engine": "UCCI 引擎",
    "The engine offers a draw": "引擎提和",
    "The engine would resign": "引擎认输",
    "Found a {protocol} engine: {name}": "检测到 {protocol} 引擎：{name}",
    "Built-in engine": "内置引擎",
    "Monte-Carlo tree search engine": "蒙特卡洛树搜索引擎",
    "Zero engine (neural network)": "Zero 引擎（神经网络）",
    "Engine command": "引擎命令",
    "Choose a course player file or folder": "选择课程棋手文件或文件夹",
    "Choose a UCI or UCCI engine executable": "选择 UCI 或 UCCI 引擎可执行文件",
    "Python files": "Python 文件",
    "Player file…": "棋手文件…",
    "Player folder…": "棋手文件夹…",
    "Reading the engine's options…": "正在读取引擎选项…",
    "Could not start {path}: {reason}": "无法启动 {path}：{reason}",
    # --- position editor ---------------------------------------------------------------------
    "Position editor": "局面编辑",
    "Side to move": "走子方",
    "Clear board": "清空棋盘",
    "Start position": "初始局面",
    "Eraser": "橡皮擦",
    "Load FEN": "载入 FEN",
    "The position is valid.": "局面合法。",
    "Start game": "开始对局",
    "Invalid FEN: {reason}": "FEN 无效：{reason}",
    "King": "帅/将",
    "Advisor": "仕/士",
    "Elephant": "相/象",
    "Horse": "马",
    "Chariot": "车",
    "Cannon": "炮",
    "Pawn": "兵/卒",
    # --- fog of war (fog_window.py) -------------------------------------------------------------
    "Fog of war…": "暗棋（战争迷雾）…",
    "Fog of war": "暗棋（战争迷雾）",
    "Play Red": "执红",
    "Play Black": "执黑",
    "Watch two agents": "观看两个智能体对弈",
    "Black's view": "黑方视角",
    "Full board": "全盘",
    "You": "你",
    "Red agent": "红方智能体",
    "Black agent": "黑方智能体",
    "View": "视角",
    "Starting the agents…": "正在启动智能体…",
    "Your move": "轮到你走",
    "Ply {ply} of {plies}": "第 {ply} / {plies} 步",
    # --- opening explorer and pictures (explorer_panel.py, main_window.py) -----------------------
    "Opening explorer": "开局浏览",
    "Choose position index…": "选择局面索引…",
    "Position indexes": "局面索引",
    "No position index chosen: View → Choose position index…": "未选择局面索引：视图 → 选择局面索引…",
    "Master games: looking up…": "大师对局：查询中…",
    "Master games: {games} played on from here (CCPD book, CC BY 4.0)": "大师对局：自此局面续弈 {games} 局（CCPD 开局库，CC BY 4.0）",
    "Master games: none in the book from this position": "大师对局：开局库中没有此局面",
    "Looking up…": "查询中…",
    "Could not read the position index: {reason}": "无法读取局面索引：{reason}",
    "{index}: {games} games reached this position; Red's average result {average} over {decided} with a result":
        "{index}：{games} 局到达此局面；有结果的 {decided} 局中红方平均得分 {average}",
    "Draws": "和局",
    "Red's average": "红方平均得分",
    "no results": "无结果",
    "{index}: {games} games reached this position; none of them has a result": "{index}：{games} 局到达此局面；其中没有一局有结果",
    "Export position…": "导出局面图片…",
    "Export game as GIF…": "导出对局动画（GIF）…",
    "Copy position picture": "复制局面图片",
    "Show coordinates": "显示坐标",
    "Show book moves": "显示开局库着法",
    "Level {level} beats Fairy-Stockfish at skill level {beats}": "{level} 级胜 Fairy-Stockfish 技能等级 {beats}",
    " and loses to skill level {loses}": "，负于技能等级 {loses}",
    " ({seconds} s a move, measured on the strength ladder)": "（每步 {seconds} 秒，强度阶梯实测）",
    "Opening books and position indexes": "开局库与局面索引",
    "&Help": "帮助(&H)",
    "About xqdesk…": "关于 xqdesk…",
    "About xqdesk": "关于 xqdesk",
    "Xiangqi (Chinese chess): play, analyse and replay.": "中国象棋：对弈、分析与复盘。",
    "MIT licence; the bundled fonts under the SIL Open Font License.": "MIT 许可证；随附字体采用 SIL 开放字体许可证。",
    "Opening book: {games} master games, built from": "开局库：{games} 局大师对局，数据来源",
    "The built-in engine's evaluation weights and the zero engine's network learned from the same collection's games and results.":
        "内置引擎的评估权重与 zero 引擎的网络，同样学自这批对局及其胜负。",
    "Seconds between moves": "每步间隔秒数",
    "Wrote {path}": "已写入 {path}",
    "Add games to the position index…": "将棋谱加入局面索引…",
    "New position index": "新建局面索引",
    "A position index is being built already": "已有局面索引正在建立",
    "Indexing games…": "正在建立索引…",
    "Cancel": "取消",
    "Indexed {name}: {games} games": "已索引 {name}：{games} 局",
    "Indexed {files} files, {games} games; {skipped} unchanged skipped": "已索引 {files} 个文件、{games} 局；跳过未改动的 {skipped} 个",
    "cancelled": "已取消",
    # --- position problems (xqdesk.position_check) ---------------------------------------------
    "{side} has no king": "{side}没有帅（将）",
    "{side} has {count} kings": "{side}有 {count} 个帅（将）",
    "{side} has {count} {piece}s, at most {limit} allowed": "{side}有 {count} 个{piece}，最多 {limit} 个",
    "{side} {piece} on {square} is outside its palace": "{side}{piece}在 {square}，不在九宫内",
    "{side} advisor on {square} is off the palace diagonals": "{side}仕（士）在 {square}，不在九宫斜线上",
    "{side} elephant on {square} is not on an elephant point": "{side}相（象）在 {square}，不在相（象）位上",
    "{side} pawn on {square} is behind its start": "{side}兵（卒）在 {square}，位于起始位置之后",
    "the two kings face each other on file {file}": "双方将帅在 {file} 线照面",
    "{mover} is to move but the other king is in check": "轮到{mover}走棋，但对方的将（帅）正被将军",
    "Choose…": "选择…",
    "Reading {name}…": "正在读取 {name}…",
    "Stopped reading {name}": "已停止读取 {name}",
    "Cancelling…": "正在取消…",
    "Export game as PDF…": "导出对局为 PDF…",
    "Writing {name}…": "正在写入 {name}…",
    "An export is running already": "已有导出正在进行",
    "Stopped writing {name}": "已停止写入 {name}",
    "Diagrams after the moves ticked:": "在勾选的着法之后画局面图：",
    "After {number}. {move}": "第 {number} 回合 {move} 之后",
    "The game is on: only its own moves can be shown": "对局进行中：只能查看本局的着法",
    "Click a move to show its position": "点击着法显示其局面",
    "Accuracy": "准确率",
    "Inaccuracies": "欠佳",
    "Mistakes": "错着",
    "Blunders": "败着",
    "Evaluation: {score} from Red's view": "局面评分：{score}（红方视角）",
    "Evaluation: no engine score for this position": "局面评分：此局面尚无引擎评分",
    "Last search ({move})": "上一步的搜索（{move}）",
    "Last search": "上一步的搜索",
    "Variation tree": "变着树",
    "byo-yomi": "读秒",
    "Engine tournament…": "引擎循环赛…",
    "Engine tournament": "引擎循环赛",
    "Tournament": "循环赛",
    "Time control": "用时",
    "Games per pair": "每对局数",
    "Adjudicate lost and dead-drawn games": "裁决已败与和定的对局",
    "Save games to": "棋谱保存到",
    "Choose at least two engines": "请至少选择两个引擎",
    "An engine tournament needs a time control": "引擎循环赛需要用时规定",
    "Starting the engines…": "正在启动引擎…",
    "Stopping after this move…": "本步之后停止…",
    "Playing game {number} of {total}": "第 {number} / {total} 局进行中",
    "Stopped after {finished} finished games": "已停止：完成 {finished} 局",
    "The tournament could not go on: {reason}": "循环赛无法继续：{reason}",
    "Tournament over: {finished} games": "循环赛结束：共 {finished} 局",
    "Game {number}: {red} (Red) – {black} (Black), ply {ply}": "第 {number} 局：{red}（红）– {black}（黑），第 {ply} 步",
    "Points": "积分",
    "Elo": "等级分",
    "#": "#",
    "Score %": "得分率",
    "Starting the agents… {side}: {name} ({done} of {total} ready, {seconds} s)": "正在启动智能体… {side}：{name}（已就绪 {done}/{total}，{seconds} 秒）",
    "{source}, whole file: {reason}": "{source}，整个文件：{reason}",
    "{source}, game {number}: {reason}": "{source}，第 {number} 局：{reason}",
    "not a game record in any known format; tried {formats} (as a move list: {detail}): {text}":
        "不是任何已知格式的棋谱；已尝试 {formats}（作为着法列表：{detail}）：{text}",
    "not a game record in any known format; tried {formats}: {text}": "不是任何已知格式的棋谱；已尝试 {formats}：{text}",
    "not a game record in any known format; tried {formats}": "不是任何已知格式的棋谱；已尝试 {formats}",
    "no game found in the file": "其中没有棋局",
    "cannot read move {move} in position {fen}: {reason}": "无法在局面 {fen} 中读出着法 {move}：{reason}",
    "not WXF notation (expected like {examples})": "不是 WXF 记法（应形如 {examples}）",
    "no such file or folder": "没有这个文件或文件夹",
    "a folder, and not a course match folder (it holds no summary.txt)": "是文件夹，但不是课程比赛文件夹（其中没有 summary.txt）",
    "nothing in it reads as a game record (no tags, no moves, no position)": "其中没有可读作棋谱的内容（无标签、无着法、无局面）",
    "unknown text encoding (not UTF-8, GB18030 or Big5; byte {number} is {byte}); name the encoding": "无法识别的文本编码（不是 UTF-8、GB18030 或 Big5；第 {number} 字节为 {byte}）；请指定编码",
    "empty FEN: {fen}": "FEN 为空：{fen}",
    "FEN {fen} has {count} ranks, expected {expected}": "FEN {fen} 有 {count} 行，应为 {expected} 行",
    "FEN {fen}: unknown piece letter {letter} in rank {rank} ({text})": "FEN {fen}：第 {rank} 行（{text}）中有未知的棋子字母 {letter}",
    "FEN {fen}: rank {rank} ({text}) has {count} files, expected {expected}": "FEN {fen}：第 {rank} 行（{text}）有 {count} 列，应为 {expected} 列",
    "FEN {fen}: side to move {side} is not 'w' or 'b'": "FEN {fen}：走棋方 {side} 不是 'w' 或 'b'",
    "FEN {fen}: move counter {field} is not a number": "FEN {fen}：回合数 {field} 不是数字",
    "FEN {fen}: {problems}": "FEN {fen}：{problems}",
    "{count} red kings, expected 1": "红帅 {count} 个，应为 1 个",
    "{count} black kings, expected 1": "黑将 {count} 个，应为 1 个",
    "the engine speaks neither UCI nor UCCI ({details})": "该程序既不说 UCI 也不说 UCCI（{details}）",
    "to 'uci': {first}; to 'ucci': {second}": "对 'uci'：{first}；对 'ucci'：{second}",
    "cannot start engine {path}: {reason}": "无法启动引擎 {path}：{reason}",
    "No such file or directory": "没有这个文件或目录",
    "not found on the PATH": "在 PATH 中找不到",
    "the engine exited with code {code} while waiting for {what}": "引擎在等待 {what} 时退出（退出码 {code}）",
    "the engine exited with code {code} while sending {what}": "引擎在发送 {what} 时退出（退出码 {code}）",
    "the engine was killed by signal {signal} while waiting for {what}": "引擎在等待 {what} 时被信号 {signal} 终止",
    "the engine gave no {what} in time; killed": "引擎未及时回应 {what}，已终止",
    "cannot load player {path}: {reason}": "无法加载棋手程序 {path}：{reason}",
    "player file {path} defines no class Player": "棋手文件 {path} 中没有 Player 类",
    "Player({side}) in {path} raised {error}": "{path} 中的 Player({side}) 出错：{error}",
    "{path} does not exist": "{path} 不存在",
    "{path} is not an executable program": "{path} 不是可执行程序",
    "Permission denied": "没有权限",
    "Each engine's clock: seconds a move ('1s': the engines are told it, the referee holds them to the course's 10 s), game time plus increment ('3m+2s') or main time then byo-yomi ('5m|10s')": "每个引擎的用时：每步秒数（'1s'：告诉引擎此时间，裁判按课程的每步 10 秒判超时）、局时加每步加秒（'3m+2s'）或基本用时后读秒（'5m|10s'）",
    "There is no previous autosave": "没有上一次的自动保存",
    "Open previous autosave": "打开上一次的自动保存",
    "No engine is running.": "没有引擎在运行。",
    "{title} (type to add one)": "{title}（输入即可添加）",
}

_TABLES: Final[dict[Language, dict[str, str]]] = {Language.CHINESE: CHINESE}


class LanguageNotifier(QObject):
    """Announces a change of interface language to every widget that shows text."""

    language_changed = Signal(str)  # the new Language's value, e.g. "zh_CN"


_current: Language = Language.ENGLISH
_notifier: LanguageNotifier | None = None
_qt_translator: QTranslator | None = None

#: Qt's own translation catalogue (standard buttons, file dialogs …) for each language.
QT_CATALOGUES: Final[dict[Language, str]] = {Language.CHINESE: "qtbase_zh_CN"}


def language_notifier() -> LanguageNotifier:
    """The one notifier of the application (created on first use, in the GUI thread)."""
    global _notifier
    if _notifier is None:
        _notifier = LanguageNotifier()
    return _notifier


def follow_language(widget: QObject, retranslate: Callable[[], None]) -> None:
    """Call ``retranslate()`` after every language switch for as long as ``widget`` lives.

    A bound method is held weakly, so following the language never keeps a widget alive.
    """
    if inspect.ismethod(retranslate):
        weak_method = weakref.WeakMethod(retranslate)

        def on_change(_name: str) -> None:
            callback = weak_method()
            if callback is not None:
                callback()
    else:
        def on_change(_name: str) -> None:
            retranslate()

    connection = language_notifier().language_changed.connect(on_change)
    widget.destroyed.connect(lambda *_args: QObject.disconnect(connection))


def current_language() -> Language:
    """The language :func:`tr` translates into."""
    return _current


def set_language(language: Language | str) -> None:
    """Switch the interface language; emits ``language_changed`` when it actually changes."""
    global _current
    chosen = language if isinstance(language, Language) else Language.from_name(language)
    if chosen is _current:
        return
    _current = chosen
    _install_qt_translation(chosen)
    language_notifier().language_changed.emit(chosen.value)


def _install_qt_translation(language: Language) -> None:
    """Let Qt's own texts (OK, Cancel, file dialogs) follow the interface language."""
    global _qt_translator
    application = QCoreApplication.instance()
    if application is None:
        return
    if _qt_translator is not None:
        application.removeTranslator(_qt_translator)
        _qt_translator = None
    catalogue = QT_CATALOGUES.get(language)
    if catalogue is None:
        return
    translator = QTranslator(application)
    if translator.load(catalogue, QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        application.installTranslator(translator)
        _qt_translator = translator


def translate(text: str, language: Language) -> str:
    """``text`` (an English source string) in ``language``; the text itself when untranslated."""
    table = _TABLES.get(language)
    if table is None:
        return text
    return table.get(text, text)


def tr(text: str) -> str:
    """``text`` (an English source string) in the current interface language."""
    return translate(text, _current)


PLAYER_NAMES = ("Person", "xqdesk builtin")
"""Names the program itself gives players (a person's seat, the built-in engine's UCI name)."""

_BUILTIN_LEVEL = re.compile(r"Built-in level (\d+)")


def tr_player(name: str) -> str:
    """A player's name as shown: the names the program gives (``Person``, ``xqdesk builtin``,
    ``Built-in level 3``) in the interface language, whichever language wrote them; any other name
    stays as it is."""
    if name in PLAYER_NAMES:
        return tr(name)
    level = _BUILTIN_LEVEL.fullmatch(name)
    if level is not None:
        return tr("Built-in level {level}").format(level=level.group(1))
    for table in _TABLES.values():  # a name written while another language was chosen
        for english in PLAYER_NAMES:
            if table.get(english) == name:
                return tr(english)
    return name


def side_word(color: Color) -> str:
    """``Red`` or ``Black`` in the interface language."""
    return tr(side_name(color))


def tr_outcome(text: str) -> str:
    """An outcome's text (``Outcome.text``) in the current language. The course's sentence is
    translated; a reason appended in parentheses (an illegal move's explanation) is kept as it is."""
    if text in CHINESE or " (" not in text or not text.endswith(")"):
        return tr(text)
    sentence, reason = text[:-1].split(" (", 1)
    if _current is Language.ENGLISH or sentence not in CHINESE:
        return text
    return f"{tr(sentence)}（{reason}）"


def has_translation(text: str, language: Language = Language.CHINESE) -> bool:
    """Whether the table of ``language`` has an entry for ``text`` (English always has)."""
    table = _TABLES.get(language)
    return table is None or text in table

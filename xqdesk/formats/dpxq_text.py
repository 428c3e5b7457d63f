"""The plain text 东萍象棋网 (dpxq.com) gives for a game, read.

Header lines ``键: 值`` (``红方: 北京 刘永富``, ``结果: 黑方胜``; simplified or traditional, ``:`` or
``：``), then the main line, numbered (``  1.炮二平五      士６进５  ``), and a trailing
``棋谱由 http://www.dpxq.com/ 生成``. A ``【主变: 和棋】`` line gives the result too. Only the main
line is read: the variations dpxq prints after it (``【变1 …】``) and any drawn set-up position are
not (its UBB code, :mod:`xqdesk.formats.dhtmlxq`, holds both).
"""
from __future__ import annotations

import re
from pathlib import Path

from xqdesk.formats.game_file import GameFile, file_error, read_text_records
from xqdesk.formats.pgn import parse_pgn

_HEADER = re.compile(r"^\s*([\u4e00-\u9fff]{2,5})\s*[:：]\s*(.*?)\s*$")
_MOVE_LINE = re.compile(r"^[\s\u3000]*[0-9０-９]+\s*[.．、]")
_MAIN_LINE = re.compile(r"^\s*【主变\s*[:：]?\s*(.*?)】")
_VARIATION = re.compile(r"^\s*【变")
_SIGNATURE = "棋谱由 http://www.dpxq.com/ 生成"
_HEADERS = {"标题": "Title", "標題": "Title", "赛事": "Event", "賽事": "Event", "轮次": "Round", "輪次": "Round",
            "布局": "Opening", "佈局": "Opening", "红方": "Red", "紅方": "Red", "黑方": "Black",
            "日期": "Date", "地点": "Site", "地點": "Site", "红方团体": "RedTeam", "紅方團體": "RedTeam",
            "黑方团体": "BlackTeam", "黑方團體": "BlackTeam", "评论": "Annotator", "評論": "Annotator",
            "作者": "Author", "记时规则": "TimeControl", "記時規則": "TimeControl"}
_RESULTS = {"红方胜": "1-0", "紅方勝": "1-0", "红胜": "1-0", "紅勝": "1-0", "黑方胜": "0-1", "黑方勝": "0-1",
            "黑胜": "0-1", "黑勝": "0-1", "和棋": "1/2-1/2", "和局": "1/2-1/2", "和": "1/2-1/2"}


def looks_like_dpxq_text(text: str) -> bool:
    """Whether ``text`` is dpxq's plain text: its signature line, or 红方/黑方 header lines and a
    numbered move line."""
    if _SIGNATURE in text:
        return True
    keys = {match.group(1) for line in text.splitlines()[:60] if (match := _HEADER.match(line))}
    return bool(keys & {"红方", "紅方"}) and bool(keys & {"黑方"}) and any(
        _MOVE_LINE.match(line) for line in text.splitlines())


def parse_dpxq_text(text: str, source: str = "<dpxq>") -> GameFile:
    """The game in a dpxq plain text (one game; see the module's docstring)."""
    tags: dict[str, str] = {}
    move_lines: list[str] = []
    first_move_line = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if _VARIATION.match(line):
            break
        if (main := _MAIN_LINE.match(line)) is not None:
            result = _RESULTS.get(main.group(1).strip())
            if result:
                tags.setdefault("Result", result)
            continue
        if _MOVE_LINE.match(line):
            first_move_line = first_move_line or number
            move_lines.append(line)
            continue
        if not move_lines and (header := _HEADER.match(line)) is not None:
            key, value = header.groups()
            if key in ("结果", "結果"):
                result = _RESULTS.get(value.replace(" ", ""))
                if result:
                    tags["Result"] = result
            elif key in _HEADERS and value:
                tags[_HEADERS[key]] = value
    if not move_lines:
        return GameFile(source, errors=[file_error(source, "whole file", "no numbered move line "
                                                                         "(like '1.炮二平五 马８进７') in the text")])
    pgn = "".join(f'[{tag} "{value.replace(chr(34), chr(39))}"]\n' for tag, value in tags.items())
    body = "\n".join(move_lines)
    return parse_pgn(pgn + body, source, line_offset=first_move_line - len(tags) - 1)


def read_dpxq_text(path: str | Path, encoding: str | None = None) -> GameFile:
    """Read a file holding dpxq's plain text (encoding detected unless given)."""
    return read_text_records(path, encoding, parse_dpxq_text)

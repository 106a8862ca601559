"""pokerdyn.figures.base: the fixed title position of new_figure is where matplotlib's automatic
placement puts a title, and save writes the PNG at DPI with the figure's own layout."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402

from pokerdyn.figures.base import DPI, new_figure, save  # noqa: E402


def _draw(fig, ax):
    ax.plot(np.linspace(0, 1, 50), np.linspace(0, 1, 50) ** 2, label="x^2")
    ax.set_yscale("log")
    ax.set_xlabel("t")
    ax.set_ylabel("value")
    ax.legend()
    ax.set_title("a title", fontsize=9)
    fig.set_dpi(DPI)
    fig.tight_layout()
    fig.canvas.draw()
    return ax.title.get_window_extent()


def test_the_fixed_title_sits_where_automatic_placement_puts_it():
    fig, axes = new_figure(1, 2, size=(8, 3))
    ours = [_draw(fig, ax) for ax in axes]
    fig_auto, axes_auto = plt.subplots(1, 2, figsize=(8, 3))  # rcParams: titley None
    auto = [_draw(fig_auto, ax) for ax in axes_auto]
    for a, b in zip(ours, auto):
        assert np.allclose(a.get_points(), b.get_points())
    assert all(ax.title.get_position()[1] == 1.0 for ax in axes)
    plt.close(fig)
    plt.close(fig_auto)


def test_a_3d_axes_keeps_automatic_title_placement():
    fig, ax = new_figure(size=(4, 4), subplot_kw={"projection": "3d"})
    assert ax._autotitlepos  # matplotlib's flag: the title is placed automatically
    plt.close(fig)
    fig, ax = new_figure()
    assert not ax._autotitlepos
    plt.close(fig)


def test_save_writes_the_png_at_dpi(tmp_path):
    fig, ax = new_figure(size=(5, 2.5))
    ax.plot([0, 1], [1, 0])
    path = save(fig, tmp_path, "x.png")
    with Image.open(path) as im:
        assert im.size == (5 * DPI, int(2.5 * DPI))
    assert not plt.fignum_exists(fig.number)  # closed

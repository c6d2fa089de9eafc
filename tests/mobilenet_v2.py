"""MobileNetV2 (Sandler et al., "MobileNetV2: Inverted Residuals and Linear Bottlenecks", CVPR 2018, Table 2),
written here in a few lines of torch.nn: a real network of the size students meet, for the tests that describe a
large PyTorch graph (torchvision is not among the course's packages).

Each row (t, c, n, s) of the paper's table is n inverted-residual blocks of expansion t and c output channels, the
first with stride s; a block adds its input back when its stride is 1 and its channels do not change.
"""

from __future__ import annotations

import torch
from torch import nn

#: the paper's Table 2: expansion t, output channels c, repeats n, first stride s
BLOCKS = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)]


def conv_bn(cin: int, cout: int, k: int = 1, stride: int = 1, groups: int = 1, relu: bool = True) -> nn.Sequential:
    layers = [nn.Conv2d(cin, cout, k, stride, k // 2, groups=groups, bias=False), nn.BatchNorm2d(cout)]
    return nn.Sequential(*layers, *([nn.ReLU6()] if relu else []))


class Block(nn.Module):
    """Expand (1x1), depthwise (3x3), project (1x1, linear); the input added back when shapes allow."""

    def __init__(self, cin: int, cout: int, stride: int, t: int) -> None:
        super().__init__()
        hidden = cin * t
        layers = ([conv_bn(cin, hidden)] if t != 1 else []) + [conv_bn(hidden, hidden, 3, stride, groups=hidden),
                                                               conv_bn(hidden, cout, relu=False)]
        self.conv = nn.Sequential(*layers)
        self.residual = stride == 1 and cin == cout

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.conv(x) if self.residual else self.conv(x)


class MobileNetV2(nn.Module):
    def __init__(self, classes: int = 1000) -> None:
        super().__init__()
        layers: list[nn.Module] = [conv_bn(3, 32, 3, 2)]
        cin = 32
        for t, c, n, s in BLOCKS:
            for k in range(n):
                layers.append(Block(cin, c, s if k == 0 else 1, t))
                cin = c
        self.features = nn.Sequential(*layers, conv_bn(cin, 1280))
        self.classifier = nn.Sequential(nn.Dropout(0.2), nn.Linear(1280, classes))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = nn.functional.adaptive_avg_pool2d(self.features(x), 1)
        return self.classifier(torch.flatten(x, 1))

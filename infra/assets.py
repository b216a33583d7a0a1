"""The Lambda code assets: CDK's local bundling hook over infra/bundle.py, so no Docker is needed.

CDK calls the hook only for stacks it bundles: ``cdk synth`` and ``cdk deploy`` do, and the tests
skip it with the context ``aws:cdk:bundling-stacks = []`` (the asset then stands for the source
tree, under the same hash).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsii
from aws_cdk import AssetHashType, BundlingOptions, DockerImage, ILocalBundling
from aws_cdk import aws_lambda as lambda_

from infra import bundle

UNUSED_IMAGE = DockerImage.from_registry("public.ecr.aws/sam/build-python3.12")
"""CDK requires an image; the local hook always builds, so it is never pulled."""


@jsii.implements(ILocalBundling)
class LocalBundling:
    """Builds one package here, with pip, instead of in a Docker container."""

    def __init__(self, package: bundle.Package, runtime: str) -> None:
        self.package = package
        self.runtime = runtime

    def try_bundle(self, output_dir: str, *_args: Any, **_options: Any) -> bool:
        bundle.build(Path(output_dir), self.package, self.runtime)
        return True


def lambda_code(package: bundle.Package, runtime: lambda_.Runtime) -> lambda_.Code:
    """The code asset of ``package`` for ``runtime``, hashed from what it is built from."""
    return lambda_.Code.from_asset(
        # Any folder will do: the hook builds from the whole project, and the hash says what from.
        str(bundle.ROOT / "functions"),
        asset_hash_type=AssetHashType.CUSTOM,
        asset_hash=bundle.source_hash(package, runtime.name),
        bundling=BundlingOptions(image=UNUSED_IMAGE, local=LocalBundling(package, runtime.name)),
    )

"""Writes a large configuration for the Kueue export tests: POLICIES
policies over 16 pools and 8 profiles, with reservations that fit, limits
(some below what the policy reaches), pauses, namespaces, StrictFIFO, MIG
fractions, a dynamic profile and names that need their DNS-1123 forms.
The same arguments give the same file.

Usage: python3 gen_kueue_config.py POLICIES [--ticks] > config.yaml
"""
import random
import sys


def main(argv):
    policies = int(argv[1])
    ticks = "--ticks" in argv
    rng = random.Random(policies)
    out = ["apiVersion: rescfg/v1", "kind: ResourceConfiguration"]
    out.append("kubernetes:")
    out.append("  namespace: ml")
    if ticks:
        out.append("  ticksResource: rescfg.io/gpu-ticks")
    pools = []
    out.append("pools:")
    for i in range(16):
        name = f"Pool {i:02d} {'H100' if i % 2 else 'A100'}"
        size = 64 if i % 4 else 32
        pools.append((name, size))
        out.append(f"  - name: {name}")
        out.append(f"    resources: {size}")
        if i % 4 == 1:
            out.append('    gpuFractions: {mig: {"1/7": nvidia.com/mig-1g.10gb}}')
        if i == 5:
            out.append("    paused: true")
        out.append("    kubernetes:")
        out.append(f"      nodeLabels: {{nvidia.com/gpu.product: {'H100' if i % 2 else 'A100'}, pool: p{i}}}")
        if i % 3 == 0:
            out.append("      nodeTaints: [{key: dedicated, value: gpu, effect: NoSchedule}]")
            out.append("      tolerations: [{key: dedicated, operator: Equal, value: gpu, effect: NoSchedule}]")
    profiles = []
    out.append("profiles:")
    for j in range(8):
        name = f"{2 ** (j % 4)}xGPU-{j}"
        links = [(2 * j + 3 * t) % 16 for t in range(4 + j % 3)]
        if j == 6:
            name, links = "seventh", [1, 5, 9, 13]  # the MIG pools
        profiles.append(name)
        out.append(f"  - name: {name}")
        out.append('    allotment: "1/7"' if j == 6 else f"    allotment: {2 ** (j % 4)}")
        if j == 7:
            out.append("    dynamic: {parameter: runtime.gpus}")
        if j % 3 == 2:
            out.append("    queueing: StrictFIFO")
        out.append("    links:")
        for p in links:
            out.append(f"      - {{pool: {pools[p][0]}, queue: q{j}-{p}}}")
    out.append("policies:")
    capacity = sum(size for _, size in pools)
    budget = capacity // 2
    for k in range(policies):
        out.append(f"  - name: Team {k:04d}")
        use = rng.sample(profiles, 1 + k % 3)
        reserved = 1 if budget > 0 and k % 3 == 0 else 0
        budget -= reserved
        if reserved:
            out.append(f"    reserved: {reserved}")
        if k % 2 == 0:
            out.append(f"    limit: {reserved + rng.choice([8, 12, 16, 64, 1024])}")
        if k % 97 == 0:
            out.append("    paused: true")
        if k % 10 == 0:
            out.append(f"    kubernetes: {{namespace: team-{k:04d}}}")
        out.append("    profiles: [" + ", ".join(use) + "]")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

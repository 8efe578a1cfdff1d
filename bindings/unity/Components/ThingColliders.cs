// Placed things' colliders as pooled GameObjects: a capsule, sphere or box collider each,
// placed by relief's collider transform under a parent per chunk, made for the chunks near the
// focus only (a forest within the far band's 384 m would be tens of thousands of objects), a
// few per frame within a budget, and handed back to the pool when their chunk leaves. No
// Rigidbody: to PhysX they are static colliders. (GameObject.isStatic is an editor flag for
// baking and static batching; set at run time it changes nothing, and Unity's own setter is
// named SetIsStaticDeprecated: Runtime/Export/Scripting/GameObject.bindings.cs.)
using System.Collections.Generic;
using System.Diagnostics;
using UnityEngine;

namespace Relief.Unity
{
    sealed class ThingColliders
    {
        /// <summary>Metres past the radius a chunk keeps its colliders, so one at the edge does
        /// not churn as the focus steps back and forth.</summary>
        const double Hysteresis = 16;

        readonly GameObject root;
        readonly int layer;
        readonly Stack<GameObject> parents = new Stack<GameObject>();
        readonly Stack<PooledCollider>[] free = { null, new Stack<PooledCollider>(), new Stack<PooledCollider>(), new Stack<PooledCollider>() };
        readonly List<HeldThings> queue = new List<HeldThings>();
        readonly Stopwatch clock = new Stopwatch();

        /// <summary>Colliders in use, and made in all.</summary>
        internal int Active, Created;

        /// <summary>Colliders still to make for chunks near the focus.</summary>
        internal int Pending
        {
            get
            {
                int n = 0;
                foreach (HeldThings c in queue)
                    n += c.Shapes.Length - c.Built;
                return n;
            }
        }

        internal int Pooled { get { return free[1].Count + free[2].Count + free[3].Count; } }

        /// <summary>Everything hangs under one object, a child of <paramref name="owner"/> (the
        /// streaming component's transform, whose space relief's positions are in).</summary>
        internal ThingColliders(Transform owner, int layer)
        {
            this.layer = layer;
            root = new GameObject("relief placed things");
            root.layer = layer;
            root.transform.SetParent(owner, false);
        }

        /// <summary>Once a frame (the held chunks as their dictionary's values: enumerated
        /// without an allocation): chunks within <paramref name="radius"/> metres (on the ground)
        /// of <paramref name="focus"/> get colliders (every chunk with radius 0), others give
        /// theirs back; then colliders are made until <paramref name="budgetMs"/> has passed
        /// (at least one). <paramref name="on"/> false takes every collider away.</summary>
        internal void Frame(Dictionary<ThingKey, HeldThings>.ValueCollection chunks, bool on, Double3? focus, double radius, double budgetMs, Double3 origin)
        {
            foreach (HeldThings c in chunks)
            {
                if (c.Shapes.Length == 0)
                    continue;
                bool has = c.Queued || c.Colliders.Count > 0;
                bool want = on && (radius <= 0 || (focus.HasValue && c.Distance(focus.Value) <= radius + (has ? Hysteresis : 0)));
                if (want && !has && c.Built < c.Shapes.Length)
                {
                    c.Queued = true;
                    queue.Add(c);
                }
                else if (!want && has)
                    Clear(c);
            }
            Build(budgetMs, origin);
        }

        void Build(double budgetMs, Double3 origin)
        {
            clock.Restart();
            bool first = true;
            while (queue.Count > 0 && (first || clock.Elapsed.TotalMilliseconds < budgetMs))
            {
                HeldThings c = queue[0];
                if (c.Built >= c.Shapes.Length)
                {
                    queue.RemoveAt(0);
                    c.Queued = false;
                    continue;
                }
                ThingShapePlacement s = c.Shapes[c.Built++];
                if (s.Shape == ThingShape.None)
                    continue;
                if (c.Parent == null)
                    c.Parent = TakeParent(c, origin);
                PooledCollider pc = Take(s.Shape);
                pc.Transform.SetParent(c.Parent.transform, false);
                pc.Transform.localPosition = Conversions.ToVector3(s.Position - c.Anchor);
                pc.Transform.localRotation = Conversions.ToQuaternion(s.Rotation);
                pc.Size(s);
                pc.Object.SetActive(true);
                c.Colliders.Add(pc);
                Active++;
                first = false;
            }
        }

        GameObject TakeParent(HeldThings c, Double3 origin)
        {
            GameObject p;
            if (parents.Count > 0)
                p = parents.Pop();
            else
            {
                p = new GameObject("relief thing chunk");
                p.layer = layer;
                p.transform.SetParent(root.transform, false);
            }
            p.transform.localPosition = Conversions.ToLocal(c.Origin + c.Anchor, origin);
            p.SetActive(true);
            return p;
        }

        PooledCollider Take(ThingShape shape)
        {
            Stack<PooledCollider> pool = free[(int)shape];
            if (pool.Count > 0)
                return pool.Pop();
            var o = new GameObject("relief thing collider");
            o.layer = layer;
            o.SetActive(false);
            Created++;
            return new PooledCollider(o, shape);
        }

        /// <summary>Gives chunk <paramref name="c"/>'s colliders and parent back to the pool
        /// (deactivated where they are: they move on when next used) and forgets its queue place.</summary>
        internal void Clear(HeldThings c)
        {
            foreach (PooledCollider pc in c.Colliders)
            {
                pc.Object.SetActive(false);
                free[(int)pc.Shape].Push(pc);
            }
            Active -= c.Colliders.Count;
            c.Colliders.Clear();
            c.Built = 0;
            if (c.Parent != null)
            {
                c.Parent.SetActive(false);
                parents.Push(c.Parent);
                c.Parent = null;
            }
            if (c.Queued)
                queue.Remove(c);
            c.Queued = false;
        }

        /// <summary>Forgets chunk <paramref name="c"/>'s colliders without touching them (they
        /// are destroyed with the rest: <see cref="Destroy"/>), for a shutdown.</summary>
        internal void Forget(HeldThings c)
        {
            Active -= c.Colliders.Count;
            c.Colliders.Clear();
            c.Built = 0;
            c.Parent = null;
            if (c.Queued)
                queue.Remove(c);
            c.Queued = false;
        }

        /// <summary>Re-places every chunk's colliders after the floating origin moved.</summary>
        internal void Replace(Dictionary<ThingKey, HeldThings>.ValueCollection chunks, Double3 origin)
        {
            foreach (HeldThings c in chunks)
                if (c.Parent != null)
                    c.Parent.transform.localPosition = Conversions.ToLocal(c.Origin + c.Anchor, origin);
        }

        /// <summary>Destroys every object made (the held chunks' colliders included: call
        /// <see cref="Clear"/> on them first).</summary>
        internal void Destroy()
        {
            Object.Destroy(root);
            parents.Clear();
            foreach (Stack<PooledCollider> s in free)
                if (s != null) s.Clear();
            queue.Clear();
            Active = 0;
        }
    }
}
